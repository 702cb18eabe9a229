/**
 * The small pieces a chat completion and its chunks share: the id and the
 * time (the finish reason and usage words are the dialect's, in dialects/).
 */
import { randomBase62 } from '../../core/random.js';

export function toCompletionId(id: string | undefined): string {
  if (!id) return `chatcmpl-${randomBase62(29)}`;
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
