/**
 * The Messages usage object: always all four counters. Internal input tokens
 * already exclude cache reads and writes, as the vendor's `input_tokens` does.
 */
import type { Usage } from '../../core/chat.js';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function renderUsage(usage: Partial<Usage> | undefined): MessagesUsage {
  return {
    input_tokens: usage?.inputTokens ?? 0,
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
  };
}
