/**
 * Anthropic usage counters → gateway Usage. The conventions match: input_tokens
 * excludes cache reads and writes, output_tokens includes thinking tokens
 * (reasoningTokens is a breakdown of outputTokens, not an addition).
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
