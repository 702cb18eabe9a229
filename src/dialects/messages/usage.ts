/**
 * Usage in the Messages dialect, both ways. The conventions match the
 * gateway's: input_tokens excludes cache reads and writes, output_tokens
 * includes thinking tokens (reasoningTokens is a breakdown of outputTokens,
 * not an addition). Read from an upstream's answer; rendered to a client
 * always with all four counters, and with the cache writes by TTL
 * (`cache_creation`: five-minute and one-hour) when the upstream reported them.
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
  const byTtl = usage.cache_creation;
  if (byTtl) {
    const fiveMinutes = typeof byTtl.ephemeral_5m_input_tokens === 'number' ? byTtl.ephemeral_5m_input_tokens : 0;
    const oneHour = typeof byTtl.ephemeral_1h_input_tokens === 'number' ? byTtl.ephemeral_1h_input_tokens : 0;
    target.cacheWrite1hTokens = oneHour;
    // An answer with the split alone still says how much was written.
    if (typeof usage.cache_creation_input_tokens !== 'number') target.cacheWriteTokens = fiveMinutes + oneHour;
  }
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') target.reasoningTokens = thinking;
  return target;
}

export function usageFromMessages(usage: MessagesUsage | null | undefined): Usage {
  return applyMessagesUsage(emptyUsage(), usage);
}

export function renderUsage(usage: Partial<Usage> | undefined): MessagesUsage {
  const written = usage?.cacheWriteTokens ?? 0;
  const rendered: MessagesUsage = {
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
  };
  if (usage?.cacheWrite1hTokens !== undefined) {
    const oneHour = Math.min(usage.cacheWrite1hTokens, written);
    rendered.cache_creation = { ephemeral_5m_input_tokens: written - oneHour, ephemeral_1h_input_tokens: oneHour };
  }
  return rendered;
}
