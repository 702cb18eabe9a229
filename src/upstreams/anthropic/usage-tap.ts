/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap reads usage and the response id on the side.
 * Streams: only `message_start` and `message_delta` events are JSON-parsed.
 * Plain answers: the whole body is parsed once, after its last byte went out.
 */
import type { Usage } from '../../core/chat.js';
import { toUpstreamError } from '../http.js';
import { createSseFeeder, type SseEvent } from '../sse.js';
import { applyMessagesUsage, usageFromMessages } from './usage.js';
import type { MessagesResponse, MessagesUsage } from './wire.js';

export interface UsageTap {
  readonly usage: Usage | undefined;
  readonly id: string | undefined;
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array>;
}

export class MessagesStreamUsageTap implements UsageTap {
  usage: Usage | undefined;
  id: string | undefined;

  async *pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const feeder = createSseFeeder();
    try {
      for await (const chunk of body) {
        this.watch(feeder.feed(chunk));
        yield chunk;
      }
      this.watch(feeder.drain());
    } catch (error) {
      throw toUpstreamError(error, signal);
    }
  }

  private watch(events: SseEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const { event, data } = events[i];
      if (event === 'message_start') {
        const message = parseOrUndefined<{ message?: { id?: string; usage?: MessagesUsage } }>(data)?.message;
        if (!message) continue;
        this.id = message.id;
        this.usage = usageFromMessages(message.usage);
      } else if (event === 'message_delta') {
        const usage = parseOrUndefined<{ usage?: MessagesUsage }>(data)?.usage;
        if (usage) this.usage = applyMessagesUsage(this.usage ?? usageFromMessages(undefined), usage);
      }
    }
  }
}

export class MessagesJsonUsageTap implements UsageTap {
  usage: Usage | undefined;
  id: string | undefined;

  async *pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of body) {
        chunks.push(chunk);
        yield chunk;
      }
    } catch (error) {
      throw toUpstreamError(error, signal);
    }
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const json = parseOrUndefined<Partial<MessagesResponse>>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    if (!json) return;
    this.id = json.id;
    if (json.usage) this.usage = usageFromMessages(json.usage);
  }
}

/** The bytes already went to the client: a body we cannot read only costs us the usage, never the answer. */
function parseOrUndefined<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
