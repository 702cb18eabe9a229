/**
 * The reader's views of a Responses answer: how the openai-responses
 * upstream sees an answer, a stream event or an error it has not parsed
 * (upstream answers are not parsed on the way through). Built from the
 * answer's schemas (schema-response.ts, schema-stream.ts) with every field
 * optional and any item or event type allowed, so a reader checks what it
 * uses and lets everything else pass by.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { openAIErrorObjectSchema } from '../openai/schema-error.js';
import {
  compactionOutputItemSchema,
  customToolCallOutputItemSchema,
  functionCallOutputItemSchema,
  messageOutputItemSchema,
  outputTextContentSchema,
  reasoningOutputItemSchema,
  refusalContentSchema,
  responseObjectSchema,
} from './schema-response.js';

const count = () => z.int().nullish();

/** Any counter may be missing or null on a compatible server. */
export const wireUsageSchema = builtOnce(() =>
  z.object({
    input_tokens: count(),
    input_tokens_details: z.object({ cached_tokens: count(), cache_write_tokens: count() }).partial().nullish(),
    output_tokens: count(),
    output_tokens_details: z.object({ reasoning_tokens: count() }).partial().nullish(),
    total_tokens: count(),
  }),
);

/** An error object, of an error body, an `error` event or a failed response. */
export const wireErrorSchema = builtOnce(() => openAIErrorObjectSchema().partial());

/** A content part of a message item: output text or a refusal, or one of a type not known yet. */
export const wireContentPartSchema = builtOnce(() =>
  z
    .looseObject({ ...outputTextContentSchema().shape, ...refusalContentSchema().shape, type: z.string() })
    .partial()
    .required({ type: true }),
);

/** An output item of any type, with the fields of every item the gateway knows. */
export const wireOutputItemSchema = builtOnce(() =>
  z
    .looseObject({
      ...compactionOutputItemSchema().shape,
      ...reasoningOutputItemSchema().shape,
      ...customToolCallOutputItemSchema().shape,
      ...functionCallOutputItemSchema().shape,
      ...messageOutputItemSchema().shape,
      type: z.string(),
      /** A message's parts, or a reasoning item's text. */
      content: z.array(wireContentPartSchema()),
    })
    .partial()
    .required({ type: true }),
);

export const wireResponseSchema = builtOnce(() =>
  responseObjectSchema()
    .extend({ output: z.array(wireOutputItemSchema()), error: wireErrorSchema().nullable(), usage: wireUsageSchema().nullable() })
    .partial(),
);

/** A stream event of any type, with the fields of every event the gateway reads. */
export const wireEventSchema = builtOnce(() =>
  z
    .looseObject({
      type: z.string(),
      sequence_number: z.int(),
      response: wireResponseSchema(),
      output_index: z.int(),
      item: wireOutputItemSchema(),
      item_id: z.string(),
      content_index: z.int(),
      summary_index: z.int(),
      part: wireContentPartSchema(),
      delta: z.string(),
      text: z.string(),
      arguments: z.string(),
      refusal: z.string(),
      /** `error` events: the fields at the top level (the OpenAPI shape) or nested (what the service sends). */
      code: z.string().nullable(),
      message: z.string(),
      param: z.string().nullable(),
      error: wireErrorSchema(),
    })
    .partial()
    .required({ type: true }),
);

export type ResponsesUsage = z.output<ReturnType<typeof wireUsageSchema>>;
export type WireError = z.output<ReturnType<typeof wireErrorSchema>>;
export type WireContentPart = z.output<ReturnType<typeof wireContentPartSchema>>;
export type WireOutputItem = z.output<ReturnType<typeof wireOutputItemSchema>>;
export type WireResponse = z.output<ReturnType<typeof wireResponseSchema>>;
export type WireEvent = z.output<ReturnType<typeof wireEventSchema>>;
