import type { FinishReason } from '../../core/chat.js';

const byFinishReason: Record<string, FinishReason> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  LANGUAGE: 'other',
  OTHER: 'other',
};

/**
 * Gemini `finishReason` → gateway finish reason. Gemini has no reason of its
 * own for a function call (it says STOP) nor for a matched stop sequence.
 */
export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): FinishReason {
  const mapped = (reason && byFinishReason[reason]) || 'other';
  return mapped === 'stop' && hasToolCalls ? 'tool_use' : mapped;
}

/** A prompt blocked before any candidate: the answer was filtered. */
export function isPromptBlocked(blockReason: string | null | undefined): boolean {
  return !!blockReason && blockReason !== 'BLOCK_REASON_UNSPECIFIED';
}
