/**
 * Usage in the Messages dialect, both ways. The conventions match the
 * gateway's: input_tokens excludes cache reads and writes, output_tokens
 * includes thinking tokens (reasoningTokens is a breakdown of outputTokens,
 * not an addition). Read from an upstream's answer; rendered to a client
 * always with all four counters.
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { MessagesUsage } from './wire.js';

/** Overwrites the counters the upstream reported (a later message_delta carries the final values). */
export function applyMessagesUsage(target: Usage, usage: MessagesUsage | null | undefined): Usage {
  if (!usage) return target;
  if (typeof usage.input_tokens === 'number') target.inputTokens = usage.input_tokens;
  if (typeof usage.output_tokens === 'number') target.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === 'number') target.cacheReadTokens = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === 'number') target.cacheWriteTokens = usage.cache_creation_input_tokens;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') target.reasoningTokens = thinking;
  return target;
}

export function usageFromMessages(usage: MessagesUsage | null | undefined): Usage {
  return applyMessagesUsage(emptyUsage(), usage);
}

export interface RenderedMessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function renderUsage(usage: Partial<Usage> | undefined): RenderedMessagesUsage {
  return {
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
  };
}
