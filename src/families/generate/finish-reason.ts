/**
 * The internal finish reason → the dialect's `finishReason`. The dialect has
 * no separate reason for a tool call or a matched stop sequence: both are STOP.
 */
import type { FinishReason } from '../../core/chat.js';

export type GenerateFinishReason =
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY';

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
