/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap reads usage and the response id on the side.
 * Streams: only `message_start` and `message_delta` events are JSON-parsed.
 * Plain answers: the whole body is parsed once, after its last byte went out.
 */
import { parseOrUndefined, RecordingTap, tapSse, tapWhole } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { applyMessagesUsage, usageFromMessages } from './usage.js';
import type { MessagesResponse, MessagesUsage } from './wire.js';


export class MessagesStreamUsageTap extends RecordingTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapSse(body, signal, (events) => this.watch(events));
  }

  private watch(events: SseEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const { event, data } = events[i];
      if (event === 'message_start') {
        const message = parseOrUndefined<{ message?: { id?: string; usage?: MessagesUsage } }>(data)?.message;
        if (!message) continue;
        this.responseId = message.id;
        this.reported = usageFromMessages(message.usage);
      } else if (event === 'message_delta') {
        const usage = parseOrUndefined<{ usage?: MessagesUsage }>(data)?.usage;
        if (usage) this.reported = applyMessagesUsage(this.reported ?? usageFromMessages(undefined), usage);
      }
    }
  }
}

export class MessagesJsonUsageTap extends RecordingTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapWhole(body, signal, (text) => this.read(text));
  }

  private read(text: string): void {
    const json = parseOrUndefined<Partial<MessagesResponse>>(text);
    if (!json) return;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromMessages(json.usage);
  }
}

