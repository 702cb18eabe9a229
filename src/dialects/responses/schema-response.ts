/**
 * Zod schemas of the Responses answer: the response object, its output
 * items and their content, and usage, as the family writes them (and the
 * API writes them: the recorded answers parse with them). Output items of
 * the hosted tools (`web_search_call`, `file_search_call`…) are kept as they
 * come. Upstream answers are not parsed on the way through: the upstream
 * reads them through the reader's views (schema-view.ts).
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

const json = () => z.record(z.string(), z.unknown());
const count = () => z.int().nonnegative();

export const itemStatuses = ['in_progress', 'completed', 'incomplete'] as const;
const itemStatus = () => z.enum(itemStatuses);

export const outputTextContentSchema = builtOnce(() =>
  z.object({
    type: z.literal('output_text'),
    text: z.string(),
    /** Citations (`url_citation`, `file_citation`…). */
    annotations: z.array(json()),
    logprobs: z.array(json()).optional(),
  }),
);

export const refusalContentSchema = builtOnce(() => z.object({ type: z.literal('refusal'), refusal: z.string() }));

export const messageOutputItemSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('message'),
    status: itemStatus(),
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [outputTextContentSchema(), refusalContentSchema()])),
  }),
);

export const functionCallOutputItemSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('function_call'),
    status: itemStatus(),
    call_id: z.string(),
    /** Set when the function belongs to a `namespace` tool; `name` is then its name inside the namespace. */
    namespace: z.string().optional(),
    name: z.string(),
    arguments: z.string(),
  }),
);

/** A call of a `custom` (freeform) tool: plain-text input instead of JSON arguments. */
export const customToolCallOutputItemSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('custom_tool_call'),
    status: itemStatus(),
    call_id: z.string(),
    namespace: z.string().optional(),
    name: z.string(),
    input: z.string(),
  }),
);

export const summaryTextSchema = builtOnce(() => z.object({ type: z.literal('summary_text'), text: z.string() }));

export const reasoningOutputItemSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('reasoning'),
    summary: z.array(summaryTextSchema()),
    /** The raw reasoning text, where a model shows it. */
    content: z.array(z.object({ type: z.literal('reasoning_text'), text: z.string() })).optional(),
    /** The reasoning state, sent back on a later turn (when asked for with `include`). */
    encrypted_content: z.string().nullish(),
    status: itemStatus().optional(),
  }),
);

/** The compacted conversation: opaque state a later turn sends back in place of the turns it replaces. */
export const compactionOutputItemSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('compaction'),
    encrypted_content: z.string(),
  }),
);

/** A record of a hosted tool's run (web search, file search, code interpreter…), kept whole. */
export const hostedOutputItemSchema = builtOnce(() => z.looseObject({ type: z.string(), id: z.string().optional() }));

export const knownOutputItemSchema = builtOnce(() =>
  z.discriminatedUnion('type', [messageOutputItemSchema(), functionCallOutputItemSchema(), customToolCallOutputItemSchema(), reasoningOutputItemSchema(), compactionOutputItemSchema()]),
);

/** An item of `output`: one the gateway writes, or a hosted tool's record. */
export const outputItemSchema = builtOnce(() => z.union([knownOutputItemSchema(), hostedOutputItemSchema()]));

/**
 * `input_tokens` include the cached ones (broken out in the details), and
 * `output_tokens` the reasoning ones. `cache_write_tokens` is the gateway's
 * (the API leaves it out).
 */
export const responsesUsageSchema = builtOnce(() =>
  z.object({
    input_tokens: count(),
    input_tokens_details: z.object({ cached_tokens: count(), cache_write_tokens: count().optional() }),
    output_tokens: count(),
    output_tokens_details: z.object({ reasoning_tokens: count() }),
    total_tokens: count(),
  }),
);

export const responseStatuses = ['completed', 'failed', 'in_progress', 'incomplete', 'queued', 'cancelled'] as const;

export const responseObjectSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    object: z.literal('response'),
    /** Unix seconds. */
    created_at: z.number(),
    status: z.enum(responseStatuses),
    background: z.boolean().nullable(),
    completed_at: z.number().nullish(),
    /** Why a `failed` response failed; the closed list of codes is in openai/errors.ts. */
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.object({ reason: z.enum(['max_output_tokens', 'content_filter']) }).nullable(),
    instructions: z.union([z.string(), z.array(json())]).nullable(),
    max_output_tokens: z.int().nullable(),
    model: z.string(),
    output: z.array(outputItemSchema()),
    parallel_tool_calls: z.boolean(),
    previous_response_id: z.string().nullable(),
    reasoning: z.object({ effort: z.string().nullable(), summary: z.string().nullable() }),
    service_tier: z.string().nullish(),
    store: z.boolean(),
    temperature: z.number().nullable(),
    text: z.object({ format: json(), verbosity: z.string().optional() }),
    tool_choice: z.union([z.string(), json()]),
    /** The request's tools, with the defaults the API fills in. */
    tools: z.array(json()),
    top_p: z.number().nullable(),
    truncation: z.enum(['auto', 'disabled']),
    usage: responsesUsageSchema().nullable(),
    user: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    // Written by the API, not (yet) by the gateway.
    billing: json().optional(),
    conversation: json().nullish(),
    frequency_penalty: z.number().optional(),
    presence_penalty: z.number().optional(),
    max_tool_calls: z.int().nullish(),
    prompt_cache_key: z.string().nullish(),
    prompt_cache_retention: z.string().nullish(),
    safety_identifier: z.string().nullish(),
    top_logprobs: z.int().nullish(),
  }),
);

export type OutputTextContent = z.output<ReturnType<typeof outputTextContentSchema>>;
export type RefusalContent = z.output<ReturnType<typeof refusalContentSchema>>;
export type ItemStatus = (typeof itemStatuses)[number];
export type MessageOutputItem = z.output<ReturnType<typeof messageOutputItemSchema>>;
export type FunctionCallOutputItem = z.output<ReturnType<typeof functionCallOutputItemSchema>>;
export type CustomToolCallOutputItem = z.output<ReturnType<typeof customToolCallOutputItemSchema>>;
export type ReasoningOutputItem = z.output<ReturnType<typeof reasoningOutputItemSchema>>;
export type CompactionOutputItem = z.output<ReturnType<typeof compactionOutputItemSchema>>;
export type HostedOutputItem = z.output<ReturnType<typeof hostedOutputItemSchema>>;
/** The items the gateway writes. */
export type OutputItem = z.output<ReturnType<typeof knownOutputItemSchema>>;
export type RenderedResponsesUsage = z.output<ReturnType<typeof responsesUsageSchema>>;
export type ResponseStatus = (typeof responseStatuses)[number];
export type ResponseObject = z.output<ReturnType<typeof responseObjectSchema>>;
