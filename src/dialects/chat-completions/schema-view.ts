/**
 * The reader's views of a Chat Completions answer: how the openai-chat
 * upstream sees a completion, a stream chunk or its usage without parsing it
 * (upstream answers are not parsed on the way through). Built from the
 * answer's schemas (schema-response.ts) with every field optional, a whole
 * answer's message read like a stream's delta, and the error a compatible
 * server may put inside a stream.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { openAIErrorObjectSchema } from '../openai/schema-error.js';
import { chatCompletionChunkSchema, chatCompletionSchema, messageDeltaSchema } from './schema-response.js';

const count = () => z.number().nullish();

/** Any counter may be missing or null on a compatible server; the servers' own counters pass by. */
export const wireUsageSchema = builtOnce(() =>
  z.looseObject({
    prompt_tokens: count(),
    completion_tokens: count(),
    total_tokens: count(),
    prompt_tokens_details: z.looseObject({ cached_tokens: count() }).nullish(),
    completion_tokens_details: z.looseObject({ reasoning_tokens: count() }).nullish(),
    /** DeepSeek's own cache counter, used when prompt_tokens_details is absent. */
    prompt_cache_hit_tokens: count(),
  }),
);

/** A whole answer's message or a stream's delta, read alike: every field optional, any other field passing by. */
export const wireMessageSchema = builtOnce(() => messageDeltaSchema().loose());

const choiceView = () =>
  z.object({ index: z.int(), message: wireMessageSchema(), delta: wireMessageSchema(), logprobs: z.record(z.string(), z.unknown()).nullable(), finish_reason: z.string().nullable() }).partial();

export const wireCompletionSchema = builtOnce(() =>
  chatCompletionSchema()
    .extend({ choices: z.array(choiceView().omit({ delta: true })), usage: wireUsageSchema().nullable() })
    .partial(),
);

/** Some compatible servers report a failure inside the stream, as an error object (`code` may be the HTTP status) or a string. */
export const wireStreamErrorSchema = builtOnce(() =>
  z.union([
    z.string(),
    openAIErrorObjectSchema()
      .extend({ code: z.union([z.string(), z.number()]).nullable() })
      .partial(),
  ]),
);

export const wireChunkSchema = builtOnce(() =>
  chatCompletionChunkSchema()
    .extend({ choices: z.array(choiceView().omit({ message: true })), usage: wireUsageSchema().nullable(), error: wireStreamErrorSchema() })
    .partial(),
);

export type ChatCompletionUsage = z.output<ReturnType<typeof wireUsageSchema>>;
/** A message of a whole answer, or a stream's delta: every field optional. */
export type ChatCompletionMessage = z.output<ReturnType<typeof wireMessageSchema>>;
export type WireToolCall = NonNullable<ChatCompletionMessage['tool_calls']>[number];
export type ChatCompletion = z.output<ReturnType<typeof wireCompletionSchema>>;
export type ChatCompletionChunk = z.output<ReturnType<typeof wireChunkSchema>>;
