/**
 * The small pieces a chat completion and its chunks share: the id, the
 * finish reason and the usage object in the dialect's own words.
 */
import type { FinishReason, Usage } from '../../core/chat.js';
import { randomBase62 } from '../../core/random.js';

export function toCompletionId(id: string | undefined): string {
  if (!id) return `chatcmpl-${randomBase62(29)}`;
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}

export type CompletionFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** The dialect has no word for a pause or an error: the answer simply stopped. */
export function toFinishReason(reason: FinishReason, legacyFunctions = false): CompletionFinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_use':
      return legacyFunctions ? 'function_call' : 'tool_calls';
    case 'content_filter':
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: { reasoning_tokens: number; audio_tokens: number; accepted_prediction_tokens: number; rejected_prediction_tokens: number };
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

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
