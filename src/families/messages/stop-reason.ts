/**
 * Maps the internal finish reason to the Messages `stop_reason`, which is
 * always one of the vendor's words.
 */
import type { FinishReason } from '../../core/chat.js';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal' | 'pause_turn';

const stopReasons: Record<FinishReason, StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_use',
  content_filter: 'refusal',
  refusal: 'refusal',
  pause: 'pause_turn',
  // The answer ended without a reason the dialect can name; what was produced is complete as sent.
  error: 'end_turn',
  other: 'end_turn',
};

export function toStopReason(reason: FinishReason): StopReason {
  return stopReasons[reason] ?? 'end_turn';
}

/** The matched stop sequence, reported only when the answer stopped on one. */
export function toStopSequence(reason: FinishReason, stopSequence: string | null | undefined): string | null {
  return reason === 'stop_sequence' && stopSequence ? stopSequence : null;
}
