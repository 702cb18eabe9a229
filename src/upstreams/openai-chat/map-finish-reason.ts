import type { FinishReason } from '../../core/chat.js';

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
