/**
 * Stop reasons of the Messages dialect, both ways: an upstream's
 * `stop_reason` to the gateway's finish reason, and back to the word a client
 * reads, which is always one of the vendor's.
 */
import type { FinishReason } from '../../core/chat.js';
import type { MessagesStopReason } from './wire.js';

const byStopReason: Record<string, FinishReason> = {
  end_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  stop_sequence: 'stop_sequence',
  tool_use: 'tool_use',
  pause_turn: 'pause',
  refusal: 'refusal',
};

/** Anthropic `stop_reason` → gateway finish reason; unknown or missing values become `other`. */
export function mapStopReason(stopReason: string | null | undefined): FinishReason {
  return (stopReason && byStopReason[stopReason]) || 'other';
}

export type StopReason = MessagesStopReason;

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
