/**
 * Legacy Completions usage, rendered for a client. The prompt count includes
 * cached tokens, as OpenAI counts it (the gateway's input tokens exclude
 * them); the output includes reasoning. Reading an upstream's usage is the
 * Chat Completions reader's work: the two APIs share the fields.
 */
import type { Usage } from '../../core/chat.js';
import type { TextCompletionUsage } from './wire.js';

export function renderTextUsage(usage: Usage): TextCompletionUsage {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return { prompt_tokens: prompt, completion_tokens: usage.outputTokens, total_tokens: prompt + usage.outputTokens };
}
