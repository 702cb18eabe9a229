/**
 * OpenAI's `/v1/moderations` request: `input` a string, an array of
 * strings, or an array of `{ type: 'text', text }` and
 * `{ type: 'image_url', image_url: { url } }` parts (one multimodal input);
 * `model` optional, `omni-moderation-latest` when absent. Other fields are
 * kept for a native upstream.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** OpenAI's bound on inputs per request. */
export const MAX_MODERATION_INPUTS = 32;

const part = builtOnce(() =>
  z.discriminatedUnion('type', [z.looseObject({ type: z.literal('text'), text: z.string() }), z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string().min(1) }) })]),
);

export const moderationsRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }).nullable().optional(),
    input: z.union([z.string(), z.array(z.string()).min(1).max(MAX_MODERATION_INPUTS), z.array(part()).min(1).max(MAX_MODERATION_INPUTS)], {
      error: 'must be a string, an array of strings, or an array of text and image_url parts',
    }),
  }),
);

export type ModerationsRequestBody = z.output<ReturnType<typeof moderationsRequestSchema>>;
