/**
 * Zod schemas of the content parts inside Responses messages: the input parts
 * (`input_text`, `input_image`, `input_file`) and the parts of assistant output
 * sent back as input (`output_text`, `refusal`). Extra keys are kept.
 */
import { z } from 'zod';
import { fileDataSchema, httpUrl, imageUrlSchema } from '../openai/media-fields.js';
import { builtOnce } from '../../core/built-once.js';

export const inputTextSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('input_text'),
    text: z.string({ error: 'must be a string' }),
  }),
);

export const inputImageSchema = builtOnce(() =>
  z
    .looseObject({
      type: z.literal('input_image'),
      detail: z.enum(['high', 'low', 'auto'], { error: 'must be "high", "low" or "auto"' }).nullish(),
      file_id: z.string().min(1, { error: 'must not be empty' }).nullish(),
      image_url: imageUrlSchema.nullish(),
    })
    .refine((part) => part.file_id != null || part.image_url != null, {
      error: 'an input_image needs an image_url or a file_id',
    }),
);

export const inputFileSchema = builtOnce(() =>
  z
    .looseObject({
      type: z.literal('input_file'),
      file_data: fileDataSchema.nullish(),
      file_id: z.string().min(1, { error: 'must not be empty' }).nullish(),
      file_url: z.string().regex(httpUrl, { error: 'must be an http(s) URL' }).nullish(),
      filename: z.string().nullish(),
    })
    .refine((part) => part.file_data != null || part.file_id != null || part.file_url != null, {
      error: 'an input_file needs file_data, a file_id or a file_url',
    }),
);

export const outputTextSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('output_text'),
    text: z.string({ error: 'must be a string' }),
    annotations: z.array(z.looseObject({ type: z.string() })).nullish(),
  }),
);

export const refusalSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('refusal'),
    refusal: z.string({ error: 'must be a string' }),
  }),
);

export const inputPartSchemas = builtOnce(
  () =>
    ({
      input_text: inputTextSchema(),
      input_image: inputImageSchema(),
      input_file: inputFileSchema(),
    }) as const,
);

export const outputPartSchemas = builtOnce(
  () =>
    ({
      output_text: outputTextSchema(),
      refusal: refusalSchema(),
    }) as const,
);

export type InputTextPart = z.output<ReturnType<typeof inputTextSchema>>;
export type InputImagePart = z.output<ReturnType<typeof inputImageSchema>>;
export type InputFilePart = z.output<ReturnType<typeof inputFileSchema>>;
export type OutputTextPart = z.output<ReturnType<typeof outputTextSchema>>;
export type RefusalPart = z.output<ReturnType<typeof refusalSchema>>;
export type InputPart = InputTextPart | InputImagePart | InputFilePart;
export type MessagePart = InputPart | OutputTextPart | RefusalPart;
