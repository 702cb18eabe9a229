/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap reads usage and the response id on the side.
 * Streams: only lifecycle events are JSON-parsed (the terminal one carries the
 * usage). Plain answers: the whole body is parsed once, after its last byte.
 */
import type { Usage } from '../../core/chat.js';
import { toUpstreamError } from '../http.js';
import { createSseFeeder, type SseEvent } from '../sse.js';
import { usageFromResponses } from './usage.js';
import type { WireResponse } from './wire.js';

export interface UsageTap {
  readonly usage: Usage | undefined;
  readonly id: string | undefined;
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array>;
}

const lifecycleEvents = new Set(['response.created', 'response.completed', 'response.incomplete', 'response.failed']);

export class ResponsesStreamUsageTap implements UsageTap {
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
      // Without an `event:` line, the type is the first field the service writes.
      const type = event ?? /^\{"type":"([^"]+)"/.exec(data)?.[1];
      if (type === undefined || !lifecycleEvents.has(type)) continue;
      const response = parseOrUndefined<{ response?: WireResponse }>(data)?.response;
      if (!response) continue;
      this.id ??= response.id;
      if (response.usage) this.usage = usageFromResponses(response.usage);
    }
  }
}

export class ResponsesJsonUsageTap implements UsageTap {
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
    const json = parseOrUndefined<WireResponse>(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    if (!json) return;
    this.id = json.id;
    if (json.usage) this.usage = usageFromResponses(json.usage);
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
