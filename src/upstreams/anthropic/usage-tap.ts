/**
 * Usage taps for the pass-through path: the upstream bytes go to the client
 * untouched while the tap reads usage and the response id from the one parse
 * the gateway makes of them (see pass-through.ts). A stream ends with
 * `message_stop`, or with an `error` event the client sees as it is.
 */
import type { Usage } from '../../core/chat.js';
import { ReadingTap, type AnswerTap, type StreamTap } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { applyMessagesUsage, usageFromMessages } from '../../dialects/messages/usage.js';
import type { MessagesResponse, MessagesUsage } from '../../dialects/messages/wire.js';

export class MessagesStreamUsageTap extends ReadingTap implements StreamTap {
  private done = false;

  see(sse: SseEvent, data: unknown): void {
    const type = sse.event ?? (data as { type?: unknown } | null)?.type;
    if (type === 'message_start') {
      const message = (data as { message?: { id?: string; usage?: MessagesUsage } } | null)?.message;
      if (!message) return;
      this.responseId = message.id;
      this.reported = usageFromMessages(message.usage);
    } else if (type === 'message_delta') {
      const usage = (data as { usage?: MessagesUsage } | null)?.usage;
      if (usage) this.reported = applyMessagesUsage(this.reported ?? usageFromMessages(undefined), usage);
    } else if (type === 'message_stop' || type === 'error') {
      this.done = true;
    }
  }

  ended(): boolean {
    return this.done;
  }
}

export class MessagesJsonUsageTap extends ReadingTap implements AnswerTap {
  read(answer: unknown): void {
    const json = answer as Partial<MessagesResponse>;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromMessages(json.usage);
  }
}
