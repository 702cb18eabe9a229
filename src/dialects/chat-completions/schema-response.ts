/**
 * Zod schemas of the Chat Completions answer: the `chat.completion` object,
 * each `chat.completion.chunk` of a stream, their messages and deltas, and
 * usage, as the family writes them and as OpenAI and the compatible servers
 * write them (the recorded answers parse with them): `reasoning_content`
 * (DeepSeek, Qwen), `reasoning` and `x_groq` (Groq), `reasoning_details`
 * (OpenRouter), `citations` (Perplexity), and the servers' extra usage
 * counters. Upstream answers are not parsed on the way through: the
 * upstream reads them through the reader's views (schema-view.ts).
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { openAIErrorObjectSchema } from '../openai/schema-error.js';

const json = () => z.record(z.string(), z.unknown());
const count = () => z.int().nonnegative();
const seconds = () => z.number().nonnegative().optional();

/** The words the family writes; a compatible server may write others (finish-reason.ts reads them). */
export const completionFinishReasons = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call'] as const;

/**
 * `prompt_tokens` include the cached ones (in the details); `completion_tokens`
 * include the reasoning ones (usage.ts reads servers that count them apart).
 */
export const completionUsageSchema = builtOnce(() =>
  z.object({
    prompt_tokens: count(),
    completion_tokens: count(),
    total_tokens: count(),
    prompt_tokens_details: z.object({ cached_tokens: count(), audio_tokens: count().optional() }).optional(),
    completion_tokens_details: z
      .object({ reasoning_tokens: count(), audio_tokens: count().optional(), accepted_prediction_tokens: count().optional(), rejected_prediction_tokens: count().optional() })
      .optional(),
    /** DeepSeek's cache counters. */
    prompt_cache_hit_tokens: count().optional(),
    prompt_cache_miss_tokens: count().optional(),
    /** Groq's timings, in seconds. */
    queue_time: seconds(),
    prompt_time: seconds(),
    completion_time: seconds(),
    total_time: seconds(),
  }),
);

export const answerToolCallSchema = builtOnce(() =>
  z.object({
    /** Written by some compatible servers on a whole answer too. */
    index: z.int().optional(),
    id: z.string(),
    type: z.literal('function'),
    function: z.object({ name: z.string(), arguments: z.string() }),
  }),
);

/**
 * OpenRouter's reasoning entries, numbered by `index`; `format` says whose
 * state it is. The family writes the first two (families/chat-completions/reasoning-details.ts).
 */
export const reasoningDetailSchema = builtOnce(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('reasoning.text'), text: z.string(), signature: z.string().optional(), format: z.string(), index: z.int() }),
    z.object({ type: z.literal('reasoning.encrypted'), data: z.string(), id: z.string().optional(), format: z.string(), index: z.int() }),
    z.object({ type: z.literal('reasoning.summary'), summary: z.string(), format: z.string(), index: z.int() }),
  ]),
);

/** The fields of an assistant message a whole answer and a stream's deltas share. */
const reasoningFields = () => ({
  /** The thought as text (DeepSeek, Qwen; the gateway writes it too). */
  reasoning_content: z.string().nullish(),
  /** The thought as text (Groq, OpenRouter). */
  reasoning: z.string().nullish(),
  /** OpenRouter's reasoning entries, which a client sends back verbatim. */
  reasoning_details: z.array(reasoningDetailSchema()).nullish(),
});

export const completionMessageSchema = builtOnce(() =>
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    refusal: z.string().nullish(),
    ...reasoningFields(),
    tool_calls: z.array(answerToolCallSchema()).optional(),
    /** Legacy single function call, for a request made with `functions`. */
    function_call: z.object({ name: z.string(), arguments: z.string() }).optional(),
    annotations: z.array(json()).optional(),
    audio: json().nullish(),
  }),
);

/** A stream's piece of a tool call: the id, type and name come in its first piece only. */
export const toolCallDeltaSchema = builtOnce(() =>
  z.object({
    index: z.int().optional(),
    id: z.string().nullish(),
    type: z.literal('function').optional(),
    function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).optional(),
  }),
);

export const messageDeltaSchema = builtOnce(() =>
  z.object({
    role: z.string().optional(),
    content: z.string().nullish(),
    refusal: z.string().nullish(),
    ...reasoningFields(),
    tool_calls: z.array(toolCallDeltaSchema()).nullish(),
    function_call: z.object({ name: z.string().optional(), arguments: z.string().optional() }).nullish(),
  }),
);

/** What a whole answer and a chunk write beside their choices. */
const answerFields = () => ({
  id: z.string(),
  /** Unix seconds. */
  created: z.int(),
  model: z.string(),
  service_tier: z.string().nullish(),
  system_fingerprint: z.string().nullish(),
  /** Groq's request id and usage. */
  x_groq: json().optional(),
  usage_breakdown: json().nullish(),
});

export const chatCompletionSchema = builtOnce(() =>
  z.object({
    ...answerFields(),
    object: z.literal('chat.completion'),
    choices: z.array(
      z.object({
        index: z.int(),
        message: completionMessageSchema(),
        logprobs: json().nullish(),
        finish_reason: z.string().nullable(),
      }),
    ),
    usage: completionUsageSchema().optional(),
    /** Perplexity's sources. */
    citations: z.array(z.string()).optional(),
  }),
);

export const chatCompletionChunkSchema = builtOnce(() =>
  z.object({
    ...answerFields(),
    object: z.literal('chat.completion.chunk'),
    choices: z.array(
      z.object({
        index: z.int(),
        delta: messageDeltaSchema(),
        logprobs: json().nullish(),
        /** Null until the last chunk of the choice (some servers leave it out). */
        finish_reason: z.string().nullish(),
      }),
    ),
    /** Null on every chunk but the last when the client asked for usage (`stream_options.include_usage`). */
    usage: completionUsageSchema().nullish(),
    /** Padding the API adds so that chunk sizes tell nothing. */
    obfuscation: z.string().optional(),
  }),
);

/** A failure after a stream began: the error body as a chunk. */
export const errorChunkSchema = builtOnce(() => z.object({ error: openAIErrorObjectSchema() }));

export type CompletionFinishReason = (typeof completionFinishReasons)[number];
export type CompletionUsage = z.output<ReturnType<typeof completionUsageSchema>>;
export type ReasoningDetail = z.output<ReturnType<typeof reasoningDetailSchema>>;
export type AnswerToolCall = z.output<ReturnType<typeof answerToolCallSchema>>;
export type CompletionMessage = z.output<ReturnType<typeof completionMessageSchema>>;
export type MessageDelta = z.output<ReturnType<typeof messageDeltaSchema>>;
export type ChatCompletionObject = z.output<ReturnType<typeof chatCompletionSchema>>;
export type ChatCompletionChunkObject = z.output<ReturnType<typeof chatCompletionChunkSchema>>;
