/**
 * Server-sent events reader for upstream streams. Accepts `\n`, `\r\n` and `\r`
 * line endings and skips comments (eventsource-parser does the grammar); holds
 * back only the partial line the parser needs.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  event?: string;
  data: string;
}

export async function* readSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const { feed, drain } = createSseFeeder();
  for await (const chunk of body) {
    const events = feed(chunk);
    // The queue is not touched while we yield: feed() only runs between chunks.
    for (let i = 0; i < events.length; i++) yield events[i];
  }
  yield* drain();
}

/**
 * A push-style SSE decoder, for callers that forward bytes and only watch the
 * events go by (pass-through usage taps). `feed` returns the events completed
 * by this chunk (the same array each time: read it before the next call).
 */
export function createSseFeeder(): { feed(chunk: Uint8Array): SseEvent[]; drain(): SseEvent[] } {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const decoder = new TextDecoder();
  return {
    feed(chunk) {
      queue.length = 0;
      parser.feed(decoder.decode(chunk, { stream: true }));
      return queue;
    },
    drain() {
      queue.length = 0;
      // Tolerance: an upstream that ends its last event without the blank line still gets it dispatched.
      parser.feed(decoder.decode() + '\n\n');
      return queue;
    },
  };
}
