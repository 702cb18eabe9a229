import type { FinishReason } from '../../core/chat.js';

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
