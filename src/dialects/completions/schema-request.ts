/**
 * The legacy Completions request (`POST /v1/completions`) as the gateway
 * validates it: the fields it interprets, checked as the OpenAI API checks
 * them (ranges, types), and every other field kept (the object is loose), so
 * an upstream serving `/completions` itself receives what the client sent.
 * `prompt` is a string, an array of strings, an array of token ids, or an
 * array of such arrays.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const tokens = builtOnce(() => z.array(z.number().int().min(0)).min(1));

export const promptSchema = builtOnce(() => z.union([z.string(), z.array(z.string()).min(1), tokens(), z.array(tokens()).min(1)]));

export const completionsRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }),
    prompt: promptSchema(),
    max_tokens: nullable(z.number().int().min(0)),
    temperature: nullable(z.number().min(0).max(2)),
    top_p: nullable(z.number().min(0).max(1)),
    n: nullable(z.number().int().min(1).max(128)),
    stream: nullable(z.boolean()),
    stream_options: nullable(z.looseObject({ include_usage: nullable(z.boolean()) })),
    logprobs: nullable(z.number().int().min(0).max(5)),
    echo: nullable(z.boolean()),
    stop: nullable(z.union([z.string(), z.array(z.string()).max(4)])),
    presence_penalty: nullable(z.number().min(-2).max(2)),
    frequency_penalty: nullable(z.number().min(-2).max(2)),
    best_of: nullable(z.number().int().min(0).max(20)),
    logit_bias: nullable(z.record(z.string(), z.number().min(-100).max(100))),
    user: nullable(z.string()),
    seed: nullable(z.number().int()),
    suffix: nullable(z.string()),
  }),
);

export type CompletionsRequest = z.output<ReturnType<typeof completionsRequestSchema>>;
export type CompletionsPrompt = z.output<ReturnType<typeof promptSchema>>;

/** A request body as the API takes it. */
export type CompletionsRequestBody = z.input<ReturnType<typeof completionsRequestSchema>>;
