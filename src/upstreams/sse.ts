/**
 * Server-sent events reader for upstream streams. Accepts `\n`, `\r\n` and `\r`
 * line endings and skips comments (eventsource-parser does the grammar); holds
 * back only the partial line the parser needs. An upstream speaks a known
 * dialect, so a line that is no SSE field at all is garbage and fails the
 * stream, as does an event larger than the bound (the parser stops buffering there).
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { GatewayError } from '../core/errors.js';
import { capBytes, DEFAULT_UPSTREAM_LIMITS, tooLarge, type UpstreamLimits } from '../core/upstream-limits.js';

export interface SseEvent {
  event?: string;
  data: string;
}

/** An event of a forwarded stream as the pass-through's tap saw it: its data parsed (undefined for `[DONE]`). */
export interface TappedEvent extends SseEvent {
  parsed: unknown;
}

/** Reads a whole upstream stream, within the stream's total and per-event bounds. */
export async function* readSse(body: AsyncIterable<Uint8Array>, limits: UpstreamLimits = DEFAULT_UPSTREAM_LIMITS): AsyncGenerator<SseEvent> {
  const { feed, drain } = createSseFeeder(limits.maxEventBytes);
  for await (const chunk of capBytes(body, limits.maxStreamBytes, 'the upstream stream')) {
    const events = feed(chunk);
    // The queue is not touched while we yield: feed() only runs between chunks.
    for (let i = 0; i < events.length; i++) yield events[i];
  }
  yield* drain();
}

/**
 * A push-style SSE decoder, for callers that forward bytes and only watch the
 * events go by (pass-through taps). `feed` returns the events completed by
 * this chunk (the same array each time: read it before the next call) and
 * throws a retryable GatewayError on garbage or an event over `maxEventBytes`.
 */
export function createSseFeeder(maxEventBytes = DEFAULT_UPSTREAM_LIMITS.maxEventBytes): {
  feed(chunk: Uint8Array): SseEvent[];
  drain(): SseEvent[];
} {
  const queue: EventSourceMessage[] = [];
  let failure: GatewayError | undefined;
  const parser = createParser({
    onEvent: (event) => queue.push(event),
    onError: (error) => (failure ??= sseFailure(error, maxEventBytes)),
    maxBufferSize: maxEventBytes,
  });
  const decoder = new TextDecoder();
  const checked = (): SseEvent[] => {
    if (failure) throw failure;
    return queue;
  };
  return {
    feed(chunk) {
      queue.length = 0;
      parser.feed(decoder.decode(chunk, { stream: true }));
      return checked();
    },
    drain() {
      queue.length = 0;
      // Tolerance: an upstream that ends its last event without the blank line still gets it dispatched.
      parser.feed(decoder.decode() + '\n\n');
      return checked();
    },
  };
}

/** A bad `retry:` value harms nothing (the gateway never reconnects); anything else fails the stream. */
function sseFailure(error: ParseError, maxEventBytes: number): GatewayError | undefined {
  if (error.type === 'invalid-retry') return undefined;
  if (error.type === 'max-buffer-size-exceeded') return tooLarge('an upstream stream event', maxEventBytes);
  return new GatewayError('upstream_error', 'upstream sent a line that is not part of a server-sent event stream', { retryable: true });
}
