/**
 * A pass-through event stream on its way to the client. Every event's data is
 * parsed once: the adapter's tap reads usage and ids from that parse, and an
 * event that does not parse, a line that is no SSE, a stream over its bounds
 * or one that ends before the dialect's last event fails the stream (the
 * pipeline then ends it with the family's error frame). Bytes go out only up
 * to the last complete event, so that frame never lands inside a cut event
 * and a bad event never reaches the client.
 */
import type { CallSignal } from '../core/call-signal.js';
import type { Usage } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import { toUpstreamError } from './http.js';
import { capBytes, type UpstreamLimits } from '../core/upstream-limits.js';
import type { DeliveredText } from './delivered-text.js';
import { createSseFeeder, type SseEvent, type TappedEvent } from './sse.js';

/** What an adapter watches in the events it forwards. */
export interface StreamTap {
  /** Sees each event, with its data parsed. */
  see(event: SseEvent, data: unknown): void;
  /** Whether the dialect's last event (or an error event, which ends a stream too) went by. */
  ended(): boolean;
  /**
   * What the upstream reported so far. Its output counters are there only
   * once the dialect's final usage went by: before that, only the prompt's
   * (a placeholder output count is never handed on as if final).
   */
  usage(): Partial<Usage> | undefined;
  id(): string | undefined;
  /** The text, tool-call arguments and reasoning the events carried, counted once their chunk is written (every adapter's tap has it). */
  readonly delivered?: DeliveredText;
}

/**
 * `seen`, when given, holds the events of the chunk yielded last, with their
 * parse (the one the tap made), until the next chunk is asked for: a family
 * that rewrites some events reads them there instead of parsing the bytes again.
 */
export async function* forwardEvents(body: AsyncIterable<Uint8Array>, tap: StreamTap, limits: UpstreamLimits, signal: CallSignal | undefined, seen?: TappedEvent[]): AsyncGenerator<Uint8Array> {
  const feeder = createSseFeeder(limits.maxEventBytes);
  const framer = new EventFramer();
  try {
    for await (const chunk of capBytes(body, limits.maxStreamBytes, 'the upstream stream')) {
      check(feeder.feed(chunk), tap, seen);
      // The framer hands on bytes up to the last whole event: those of every event seen since the last chunk.
      const complete = framer.push(chunk);
      if (complete) {
        yield complete;
        if (seen) seen.length = 0;
      }
    }
    check(feeder.drain(), tap, seen);
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
  if (!tap.ended()) throw new GatewayError('upstream_error', 'upstream stream ended before its last event', { retryable: true });
  const rest = framer.rest();
  if (rest) yield rest;
}

function check(events: SseEvent[], tap: StreamTap, seen: TappedEvent[] | undefined): void {
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    // OpenAI-style end marker: not JSON, and harmless.
    if (event.data === '[DONE]') {
      seen?.push({ event: event.event, data: event.data, parsed: undefined });
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      throw new GatewayError('upstream_error', `upstream sent a malformed ${event.event ?? 'stream'} event`, { retryable: true });
    }
    tap.see(event, data);
    seen?.push({ event: event.event, data: event.data, parsed: data });
  }
}

/**
 * Splits the byte stream after its last blank line (`\n\n`, `\r\n\r\n`,
 * `\r\r` or a mix): what comes before holds only whole events; the rest is
 * kept until a later chunk completes it. Upstreams end their chunks on event
 * boundaries, so this usually hands each chunk on as it is.
 */
class EventFramer {
  private pending: Buffer[] = [];

  push(chunk: Uint8Array): Buffer | undefined {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const end = lastBlankLineEnd(bytes, this.pending.at(-1));
    if (end === 0) {
      this.pending.push(bytes);
      return undefined;
    }
    const head = end === bytes.length ? bytes : bytes.subarray(0, end);
    const out = this.pending.length === 0 ? head : Buffer.concat([...this.pending, head]);
    this.pending = end === bytes.length ? [] : [bytes.subarray(end)];
    return out;
  }

  rest(): Buffer | undefined {
    return this.pending.length === 0 ? undefined : Buffer.concat(this.pending);
  }
}

const separators = ['\n\n', '\n\r\n', '\r\r'];

/**
 * The offset in `bytes` just past its last blank line, or 0. A blank line
 * may start in the previous chunk (`before`): its last bytes are looked at too.
 */
function lastBlankLineEnd(bytes: Buffer, before: Buffer | undefined): number {
  let end = 0;
  for (const separator of separators) {
    const at = bytes.lastIndexOf(separator);
    if (at !== -1) end = Math.max(end, at + separator.length);
  }
  if (end > 0 || !before || before.length === 0) return end;
  const tail = before.subarray(Math.max(0, before.length - 2));
  const seam = Buffer.concat([tail, bytes.subarray(0, 2)]);
  for (const separator of separators) {
    const at = seam.lastIndexOf(separator);
    if (at !== -1) end = Math.max(end, at + separator.length - tail.length);
  }
  return Math.max(0, end);
}
