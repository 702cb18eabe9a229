/**
 * Finish reasons of the content-generation dialect, both ways: an upstream's
 * `finishReason` (and prompt block) to the gateway's finish reason, and back
 * to the word a client reads.
 */
import type { FinishReason } from '../../core/chat.js';
import type { GeminiCandidate } from './wire.js';

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

export type GenerateFinishReason = NonNullable<GeminiCandidate['finishReason']>;

const byReason: Record<FinishReason, GenerateFinishReason> = {
  stop: 'STOP',
  stop_sequence: 'STOP',
  tool_use: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  refusal: 'SAFETY',
  pause: 'OTHER',
  error: 'OTHER',
  other: 'OTHER',
};

export function toGenerateFinishReason(reason: FinishReason): GenerateFinishReason {
  return byReason[reason] ?? 'OTHER';
}

/** A filtered answer with nothing in it is reported as a blocked prompt, as the service does. */
export function isBlocked(reason: FinishReason, hasContent: boolean): boolean {
  return !hasContent && (reason === 'content_filter' || reason === 'refusal');
}
