/**
 * Zod schemas of the content parts inside Responses messages: the input parts
 * (`input_text`, `input_image`, `input_file`) and the parts of assistant output
 * sent back as input (`output_text`, `refusal`). Extra keys are kept.
 */
import { z } from 'zod';
import { base64Problem, imageTypeProblem, isSniffableImageType, parseBase64DataUrl } from '../../core/media.js';

const httpUrl = /^https?:\/\/\S+$/i;

/** Why an `input_image.image_url` is not acceptable, or undefined: an http(s) URL, or a base64 data URL holding the image it names. */
function imageUrlProblem(value: string): string | undefined {
  if (httpUrl.test(value)) return undefined;
  const parsed = parseBase64DataUrl(value);
  if (!parsed) return 'must be an http(s) URL or a base64 data URL';
  if (!isSniffableImageType(parsed.mediaType)) {
    return `a data URL of type "${parsed.mediaType.slice(0, 100)}" is not an image; use image/png, image/jpeg, image/gif or image/webp`;
  }
  const problem = base64Problem(parsed.payload) ?? imageTypeProblem(parsed.payload, parsed.mediaType);
  return problem && `the data URL ${problem}`;
}

/** Why `input_file.file_data` is not acceptable: base64, bare or as a data URL. */
function fileDataProblem(value: string): string | undefined {
  const parsed = value.startsWith('data:') ? parseBase64DataUrl(value) : { payload: value };
  if (!parsed) return 'must be base64 or a base64 data URL';
  const problem = base64Problem(parsed.payload);
  return problem && `${value.startsWith('data:') ? 'the data URL ' : ''}${problem}`;
}

/** A string refused, with the reason, when `problemOf` finds a problem. */
export const checked = (problemOf: (value: string) => string | undefined) =>
  z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const imageUrlSchema = checked(imageUrlProblem);
export const fileDataSchema = checked(fileDataProblem);

export const inputTextSchema = z.looseObject({
  type: z.literal('input_text'),
  text: z.string({ error: 'must be a string' }),
});

export const inputImageSchema = z
  .looseObject({
    type: z.literal('input_image'),
    detail: z.enum(['high', 'low', 'auto'], { error: 'must be "high", "low" or "auto"' }).nullish(),
    file_id: z.string().min(1, { error: 'must not be empty' }).nullish(),
    image_url: imageUrlSchema.nullish(),
  })
  .refine((part) => part.file_id != null || part.image_url != null, {
    error: 'an input_image needs an image_url or a file_id',
  });

export const inputFileSchema = z
  .looseObject({
    type: z.literal('input_file'),
    file_data: fileDataSchema.nullish(),
    file_id: z.string().min(1, { error: 'must not be empty' }).nullish(),
    file_url: z.string().regex(httpUrl, { error: 'must be an http(s) URL' }).nullish(),
    filename: z.string().nullish(),
  })
  .refine((part) => part.file_data != null || part.file_id != null || part.file_url != null, {
    error: 'an input_file needs file_data, a file_id or a file_url',
  });

export const outputTextSchema = z.looseObject({
  type: z.literal('output_text'),
  text: z.string({ error: 'must be a string' }),
  annotations: z.array(z.looseObject({ type: z.string() })).nullish(),
});

export const refusalSchema = z.looseObject({
  type: z.literal('refusal'),
  refusal: z.string({ error: 'must be a string' }),
});

export const inputPartSchemas = {
  input_text: inputTextSchema,
  input_image: inputImageSchema,
  input_file: inputFileSchema,
} as const;

export const outputPartSchemas = {
  output_text: outputTextSchema,
  refusal: refusalSchema,
} as const;

export type InputTextPart = z.output<typeof inputTextSchema>;
export type InputImagePart = z.output<typeof inputImageSchema>;
export type InputFilePart = z.output<typeof inputFileSchema>;
export type OutputTextPart = z.output<typeof outputTextSchema>;
export type RefusalPart = z.output<typeof refusalSchema>;
export type InputPart = InputTextPart | InputImagePart | InputFilePart;
export type MessagePart = InputPart | OutputTextPart | RefusalPart;

/** `data:<type>;base64,<data>` → its parts; undefined for anything else. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  if (!header.endsWith(';base64')) return undefined;
  const mediaType = header.split(';', 1)[0] || 'application/octet-stream';
  return { mediaType, data: url.slice(comma + 1) };
}
