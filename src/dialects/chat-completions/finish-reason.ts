/**
 * Finish reasons of the Chat Completions dialect, both ways: an upstream's
 * `finish_reason` to the gateway's, and back to the word a client reads.
 */
import type { FinishReason } from '../../core/chat.js';
import type { CompletionFinishReason } from './wire.js';

export type { CompletionFinishReason } from './wire.js';

const byFinishReason: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'content_filter',
  /** DeepSeek: the server ran out of capacity mid-answer. */
  insufficient_system_resource: 'error',
};

/** chat-completions `finish_reason` → gateway finish reason; unknown or missing values become `other`. */
export function mapFinishReason(finishReason: string | null | undefined): FinishReason {
  return (finishReason && byFinishReason[finishReason]) || 'other';
}

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
