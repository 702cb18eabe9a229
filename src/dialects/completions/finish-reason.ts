/**
 * Finish reasons of the legacy Completions dialect, for a client: the dialect
 * has words only for a stop, the length limit and a content filter.
 */
import type { FinishReason } from '../../core/chat.js';
import type { TextFinishReason } from './wire.js';

export function toTextFinishReason(reason: FinishReason): TextFinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content_filter':
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
