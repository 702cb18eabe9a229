/**
 * Gemini usageMetadata → gateway Usage. Gemini's promptTokenCount includes
 * the cached prompt tokens, and the tool-use prompt (e.g. search results) is
 * counted apart; the gateway's inputTokens excludes cache reads (as in the
 * other adapters), so inputTokens = prompt + tool-use prompt - cached.
 * Thoughts are counted apart from candidates; the gateway's outputTokens
 * includes them (reasoningTokens is the breakdown).
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { GeminiUsageMetadata } from './wire.js';

export function usageFromGemini(usage: GeminiUsageMetadata | null | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cached = usage.cachedContentTokenCount ?? 0;
  result.inputTokens = Math.max(0, (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0) - cached);
  result.cacheReadTokens = cached;
  const thoughts = usage.thoughtsTokenCount;
  result.outputTokens = (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  if (typeof thoughts === 'number') result.reasoningTokens = thoughts;
  return result;
}

/** Whether a chunk's usage carries the prompt count (early chunks of some streams carry only metadata). */
export function hasCounts(usage: GeminiUsageMetadata | null | undefined): usage is GeminiUsageMetadata {
  return !!usage && (typeof usage.promptTokenCount === 'number' || typeof usage.candidatesTokenCount === 'number');
}
