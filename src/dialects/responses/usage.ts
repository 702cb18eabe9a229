/**
 * Responses usage → gateway Usage. `input_tokens` include the cached tokens;
 * the gateway's input tokens exclude cache reads and writes, so they are
 * subtracted. `output_tokens` include reasoning tokens (reasoningTokens is a
 * breakdown of outputTokens), so output is never counted below reasoning.
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { ResponsesUsage } from './wire.js';

export function usageFromResponses(usage: ResponsesUsage | null | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  const written = usage.input_tokens_details?.cache_write_tokens ?? 0;
  result.inputTokens = Math.max(0, (usage.input_tokens ?? 0) - cached - written);
  result.cacheReadTokens = cached;
  result.cacheWriteTokens = written;
  result.outputTokens = usage.output_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') {
    result.reasoningTokens = reasoning;
    result.outputTokens = Math.max(result.outputTokens, reasoning);
  }
  return result;
}
