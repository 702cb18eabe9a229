/**
 * The fields of OpenAI's image requests the gateway reads (generations as
 * JSON, edits as the text fields of a multipart form, their numbers parsed
 * first); every other field (`quality`, `style`, `background`,
 * `moderation`, `user`, …) is kept for a native upstream as it is.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

/** OpenAI's default model when the request names none. */
export const DEFAULT_IMAGE_MODEL = 'dall-e-2';

/** OpenAI's bound on images per request. */
export const MAX_IMAGES = 10;

/** OpenAI's bound on a prompt (gpt-image models; dall-e-3 takes 4000, dall-e-2 1000: their servers say so). */
export const MAX_PROMPT_CHARS = 32_000;

const SIZE = /^(auto|[1-9]\d{1,4}x[1-9]\d{1,4})$/;

export const imagesRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }).nullable().optional(),
    prompt: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(MAX_PROMPT_CHARS),
    n: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1).max(MAX_IMAGES).nullable().optional(),
    size: z.string().regex(SIZE, { error: 'must be auto or <width>x<height>, e.g. 1024x1024' }).nullable().optional(),
    response_format: z.enum(['url', 'b64_json'], { error: 'must be url or b64_json' }).nullable().optional(),
    output_format: z.enum(['png', 'jpeg', 'webp'], { error: 'must be png, jpeg or webp' }).nullable().optional(),
    stream: z.boolean({ error: 'must be true or false' }).nullable().optional(),
  }),
);

export type ImagesRequestBody = z.output<ReturnType<typeof imagesRequestSchema>>;
