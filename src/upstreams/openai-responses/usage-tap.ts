/**
 * Usage taps for the pass-through path: the upstream bytes are yielded as they
 * arrive, untouched, while the tap reads usage and the response id on the side.
 * Streams: only lifecycle events are JSON-parsed (the terminal one carries the
 * usage). Plain answers: the whole body is parsed once, after its last byte.
 */
import { parseOrUndefined, RecordingTap, tapSse, tapWhole } from '../pass-through.js';
import type { SseEvent } from '../sse.js';
import { usageFromResponses } from './usage.js';
import type { WireResponse } from './wire.js';


const lifecycleEvents = new Set(['response.created', 'response.completed', 'response.incomplete', 'response.failed']);

export class ResponsesStreamUsageTap extends RecordingTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapSse(body, signal, (events) => this.watch(events));
  }

  private watch(events: SseEvent[]): void {
    for (let i = 0; i < events.length; i++) {
      const { event, data } = events[i];
      // Without an `event:` line, the type is the first field the service writes.
      const type = event ?? /^\{"type":"([^"]+)"/.exec(data)?.[1];
      if (type === undefined || !lifecycleEvents.has(type)) continue;
      const response = parseOrUndefined<{ response?: WireResponse }>(data)?.response;
      if (!response) continue;
      this.responseId ??= response.id;
      if (response.usage) this.reported = usageFromResponses(response.usage);
    }
  }
}

export class ResponsesJsonUsageTap extends RecordingTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
    return tapWhole(body, signal, (text) => this.read(text));
  }

  private read(text: string): void {
    const json = parseOrUndefined<WireResponse>(text);
    if (!json) return;
    this.responseId = json.id;
    if (json.usage) this.reported = usageFromResponses(json.usage);
  }
}

