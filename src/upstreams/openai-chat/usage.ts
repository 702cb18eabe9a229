/**
 * Chat-completions usage → gateway Usage. OpenAI's prompt_tokens include the
 * cached prompt tokens; the gateway follows the Anthropic convention where
 * input tokens exclude cache reads, so inputTokens = prompt_tokens - cached.
 * completion_tokens include reasoning tokens (reasoningTokens is a breakdown).
 * Chat completions report no cache writes.
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { ChatCompletionUsage } from './wire.js';

export function usageFromChatCompletion(usage: ChatCompletionUsage | null | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  result.inputTokens = Math.max(0, (usage.prompt_tokens ?? 0) - cached);
  result.cacheReadTokens = cached;
  result.outputTokens = usage.completion_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}
