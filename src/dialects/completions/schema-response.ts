/**
 * Zod schemas of the legacy Completions answer: the `text_completion`
 * object, which is also each chunk of a stream (its choices carry the text
 * delta; the usage chunk has no choices), and its usage, as the family
 * writes them and as OpenAI and the compatible servers (vLLM, Together,
 * Fireworks) write them. Upstream answers are not parsed on the way through.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

const count = () => z.int().nonnegative();

/** The words the family writes; a compatible server may write others. */
export const textFinishReasons = ['stop', 'length', 'content_filter'] as const;

export const textCompletionUsageSchema = builtOnce(() =>
  z.object({
    prompt_tokens: count(),
    completion_tokens: count(),
    total_tokens: count(),
    prompt_tokens_details: z.looseObject({ cached_tokens: count().optional() }).nullable().optional(),
    completion_tokens_details: z.looseObject({ reasoning_tokens: count().optional() }).nullable().optional(),
  }),
);

/** `logprobs` as the API writes it where asked (a native upstream's answer); the family writes null. */
const logprobsSchema = builtOnce(() =>
  z.object({
    tokens: z.array(z.string()).optional(),
    token_logprobs: z.array(z.number().nullable()).optional(),
    top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullable().optional(),
    text_offset: z.array(z.int()).optional(),
  }),
);

export const textChoiceSchema = builtOnce(() =>
  z.object({
    text: z.string(),
    index: z.int().nonnegative(),
    logprobs: logprobsSchema().nullable(),
    /** Null in the stream chunks before the last. */
    finish_reason: z.union([z.enum(textFinishReasons), z.string()]).nullable(),
  }),
);

export const textCompletionSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    object: z.literal('text_completion'),
    created: z.int(),
    model: z.string(),
    choices: z.array(textChoiceSchema()),
    usage: textCompletionUsageSchema().nullable().optional(),
    system_fingerprint: z.string().nullable().optional(),
  }),
);

export type TextCompletionObject = z.output<ReturnType<typeof textCompletionSchema>>;
export type TextChoice = z.output<ReturnType<typeof textChoiceSchema>>;
export type TextCompletionUsage = z.output<ReturnType<typeof textCompletionUsageSchema>>;
export type TextFinishReason = (typeof textFinishReasons)[number];
