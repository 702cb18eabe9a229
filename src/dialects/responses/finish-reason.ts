import type { FinishReason } from '../../core/chat.js';
import type { WireResponse } from './wire.js';

/**
 * A Responses status → gateway finish reason: an incomplete answer names its
 * reason; a completed one ended on a tool call when it holds a function call,
 * on a refusal when it holds one, else normally.
 */
export function finishReasonOf(response: WireResponse, sawToolCall: boolean, sawRefusal: boolean): FinishReason {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'content_filter';
    return 'other';
  }
  if (sawToolCall) return 'tool_use';
  if (sawRefusal) return 'refusal';
  return 'stop';
}
