/**
 * Zod schemas of the Messages message object (the answer) and what it holds:
 * content blocks and usage. Both directions use them: the family writes
 * answers of these types and the anthropic upstream reads them. Upstream
 * answers are not parsed with them on the way through (the readers check
 * each field they use); tests parse recorded answers and the family's own
 * with them. Counters and reasons may be null, as the API writes them.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

const json = () => z.record(z.string(), z.unknown());
const count = () => z.int().nullish();

/** Why the model stopped; null in `message_start`. */
export const stopReasons = ['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded'] as const;

export const messagesUsageSchema = builtOnce(() =>
  z.object({
    /** The prompt tokens neither read from nor written to the cache. */
    input_tokens: count(),
    /** Thinking tokens included. */
    output_tokens: count(),
    cache_creation_input_tokens: count(),
    cache_read_input_tokens: count(),
    /** The cache writes by TTL; together they are `cache_creation_input_tokens`. */
    cache_creation: z.object({ ephemeral_5m_input_tokens: count(), ephemeral_1h_input_tokens: count() }).nullish(),
    output_tokens_details: z.object({ thinking_tokens: count() }).nullish(),
    server_tool_use: z.object({ web_search_requests: count(), web_fetch_requests: count() }).nullish(),
    service_tier: z.string().nullish(),
    inference_geo: z.string().nullish(),
  }),
);

export const answerTextBlockSchema = builtOnce(() => z.object({ type: z.literal('text'), text: z.string(), citations: z.array(json()).nullish() }));
export const answerThinkingBlockSchema = builtOnce(() => z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }));
export const answerRedactedThinkingBlockSchema = builtOnce(() => z.object({ type: z.literal('redacted_thinking'), data: z.string() }));
export const answerToolUseBlockSchema = builtOnce(() => z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: json().nullable() }));
/** Server-side tool blocks (server_tool_use, web_search_tool_result, …), kept as they come. */
export const answerOtherBlockSchema = builtOnce(() => z.looseObject({ type: z.string() }));

/** A content block of an answer: the four the gateway converts, or any other the API has. */
export const answerBlockSchema = builtOnce(() =>
  z.union([answerTextBlockSchema(), answerThinkingBlockSchema(), answerRedactedThinkingBlockSchema(), answerToolUseBlockSchema(), answerOtherBlockSchema()]),
);

export const messageObjectSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(answerBlockSchema()),
    stop_reason: z.enum(stopReasons).nullable(),
    stop_sequence: z.string().nullable(),
    /** Why a refusal refused (`stop_reason: refusal`). */
    stop_details: json().nullish(),
    usage: messagesUsageSchema(),
    /** The code-execution container the answer ran in. */
    container: z.object({ id: z.string(), expires_at: z.string() }).nullish(),
    /** Context edits the API applied (`context_management` in the request). */
    context_management: json().nullish(),
  }),
);

export type MessagesUsage = z.output<ReturnType<typeof messagesUsageSchema>>;
export type MessagesContentBlock = z.output<ReturnType<typeof answerBlockSchema>>;
export type MessagesResponse = z.output<ReturnType<typeof messageObjectSchema>>;
export type MessagesStopReason = (typeof stopReasons)[number];
