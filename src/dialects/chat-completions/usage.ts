/**
 * Chat Completions usage, both ways (read from an upstream, rendered for a
 * client). OpenAI's prompt_tokens include the
 * cached prompt tokens; the gateway follows the Anthropic convention where
 * input tokens exclude cache reads, so inputTokens = prompt_tokens - cached.
 * Chat completions report no cache writes.
 *
 * Output always includes reasoning (reasoningTokens is a breakdown of it), so
 * billing and every client dialect count the same output. OpenAI's
 * completion_tokens include the reasoning tokens; some compatible servers
 * (xAI) report them apart. That exclusive style shows in the numbers: the
 * total is prompt + completion + reasoning, or reasoning exceeds completion.
 * Then reasoning is added to the output.
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { ChatCompletionUsage, CompletionUsage } from './wire.js';

export type { CompletionUsage } from './wire.js';

export function usageFromChatCompletion(usage: ChatCompletionUsage | null | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const prompt = usage.prompt_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  result.inputTokens = Math.max(0, prompt - cached);
  result.cacheReadTokens = cached;
  const completion = usage.completion_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  const apart = typeof reasoning === 'number' && reasoningReportedApart(prompt, completion, reasoning, usage.total_tokens);
  result.outputTokens = apart ? completion + reasoning : completion;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}

function reasoningReportedApart(prompt: number, completion: number, reasoning: number, total: number | null | undefined): boolean {
  if (reasoning <= 0) return false;
  if (reasoning > completion) return true;
  return typeof total === 'number' && total === prompt + completion + reasoning && total !== prompt + completion;
}

/** OpenAI's prompt tokens include the cached ones (the gateway's input tokens exclude them). */
export function renderUsage(usage: Usage): CompletionUsage {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}
