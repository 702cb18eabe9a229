/**
 * A native channel's answer on its way to the client. The upstream's bytes
 * pass as they are, except that the response id becomes the gateway's (and a
 * `previous_response_id` rewritten for the upstream becomes the client's again),
 * so the id a client keeps works on every channel. The finished response is
 * recorded, with the upstream's own id when the upstream stored it too, before
 * its last bytes are released.
 *
 * A stream passes chunk by chunk, each holding whole events: in a lifecycle
 * event (the ones that carry the response object) the ids are swapped where
 * the event's data stands, every other byte kept; the terminal one is also
 * recorded. The events come parsed from the upstream's check of the stream.
 */
import type { Channel } from '../../core/channel.js';
import type { PassThroughResult } from '../../upstreams/types.js';
import { WholeBody } from '../../upstreams/whole-body.js';
import type { SseEvent, TappedEvent } from '../../upstreams/sse.js';
import { forwardEvents, type StreamTap } from '../../upstreams/pass-through-stream.js';
import type { UpstreamLimits } from '../../core/upstream-limits.js';
import type { ResponsesExchange } from './exchange.js';

const terminalEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const lifecycleEvents = new Set(['response.created', 'response.queued', 'response.in_progress', ...terminalEvents]);

/**
 * The answer as the client gets it. A plain answer read whole is rewritten at
 * once, and waited for only while it is recorded (when stored); anything else
 * is rewritten as it is delivered.
 */
export function wrapNativeAnswer(exchange: ResponsesExchange, result: PassThroughResult, channel: Channel): PassThroughResult | Promise<PassThroughResult> {
  const ids = new IdMap(exchange);
  const responseId = () => exchange.id;
  if (result.contentType.startsWith('text/event-stream')) return { ...result, body: rewriteStream(result, exchange, ids, channel), responseId };
  if (!(result.body instanceof WholeBody)) return { ...result, body: rewriteJson(result, exchange, ids, channel), responseId };
  const { bytes, response } = rewriteWhole(result, result.body.bytes, exchange, ids);
  const answer: PassThroughResult = { ...result, body: new WholeBody(bytes), responseId };
  return response && exchange.records ? record(exchange, response, ids.upstreamId, channel).then(() => answer) : answer;
}

/** The upstream's id for this exchange, and the previous response id the client sees. */
class IdMap {
  upstreamId: string | undefined;
  private readonly clientPrevious: string | undefined;

  constructor(private readonly exchange: ResponsesExchange) {
    this.clientPrevious = exchange.options.history.previous?.id;
  }

  /**
   * Puts the gateway's ids on a response object the upstream wrote. Answers
   * the upstream's id when swapping it for the gateway's, where the upstream
   * wrote it, is the whole change to the upstream's writing of the object;
   * undefined when the object must be written anew.
   */
  adopt(response: Record<string, unknown>): string | undefined {
    const original = response.id;
    if (this.upstreamId === undefined && typeof original === 'string' && original !== '') this.upstreamId = original;
    response.id = this.exchange.id;
    // The upstream saw its own id for the previous turn, or none when the conversation was sent in full.
    if (this.clientPrevious !== undefined) {
      response.previous_response_id = this.clientPrevious;
      return undefined;
    }
    return typeof original === 'string' ? original : undefined;
  }
}

/** `text` with the id that follows `before` (its first occurrence) swapped, or undefined when it is not there. */
function swapInText(text: string, before: string, original: string, id: string): string | undefined {
  const found = before + JSON.stringify(original);
  const at = text.indexOf(found);
  return at === -1 ? undefined : text.slice(0, at + before.length) + JSON.stringify(id) + text.slice(at + found.length);
}

/**
 * A plain answer's bytes with the id swapped where the upstream writes it, as
 * the object's first key (only whitespace before it), or undefined. Spliced
 * as bytes: the answer is never decoded and encoded again whole.
 */
function swapLeadingInBytes(bytes: Buffer, original: string, id: string): Buffer | undefined {
  const before = '{"id":';
  const found = before + JSON.stringify(original);
  const written = JSON.stringify(id);
  let start = 0;
  while (start < bytes.length && isJsonWhitespace(bytes[start]!)) start++;
  // Compared as one-byte text: an id beyond ASCII never matches, and its answer is written anew.
  if (!isAscii(found) || !isAscii(written) || bytes.toString('latin1', start, start + found.length) !== found) return undefined;
  // One buffer, three copies: no intermediate buffers for a splice on every plain answer.
  const idAt = start + before.length;
  const rest = start + found.length;
  const out = Buffer.allocUnsafe(bytes.length - found.length + before.length + written.length);
  bytes.copy(out, 0, 0, idAt);
  out.write(written, idAt, 'latin1');
  bytes.copy(out, idAt + written.length, rest);
  return out;
}

function isAscii(text: string): boolean {
  return !/[^\x00-\x7f]/.test(text);
}

function isJsonWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

async function record(exchange: ResponsesExchange, response: Record<string, unknown>, upstreamId: string | undefined, channel: Channel): Promise<void> {
  const storedUpstream = response.store !== false && upstreamId !== undefined;
  await exchange.record(response, { channelId: channel.id, native: true, upstreamResponseId: storedUpstream ? upstreamId : null });
}

/** A plain answer delivered as it comes: read whole, rewritten, recorded, then released. */
async function* rewriteJson(result: PassThroughResult, exchange: ResponsesExchange, ids: IdMap, channel: Channel): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of result.body) chunks.push(chunk);
  const { bytes, response } = rewriteWhole(result, Buffer.concat(chunks), exchange, ids);
  if (response) await record(exchange, response, ids.upstreamId, channel);
  yield bytes;
}

/**
 * A plain answer's bytes with the gateway's ids, and the response object to
 * record (none when the answer is no response with an id: it passes as it
 * is). The upstream's parse, made when it checked the answer, is reused.
 */
function rewriteWhole(result: PassThroughResult, bytes: Buffer, exchange: ResponsesExchange, ids: IdMap): { bytes: Buffer; response?: Record<string, unknown> } {
  const response = isObject(result.answer) ? result.answer : parseObject(bytes.toString('utf8'));
  if (!response || typeof response.id !== 'string') return { bytes };
  // The upstream writes the id as the response's first key: swapped there, and only there.
  const original = ids.adopt(response);
  const swapped = original === undefined ? undefined : swapLeadingInBytes(bytes, original, exchange.id);
  return { bytes: swapped ?? Buffer.from(JSON.stringify(response)), response };
}

/**
 * The stream with the gateway's ids: a chunk whose events need no change
 * goes on as it came; in the others, each changed event's data is replaced
 * in the chunk's own text. The chunks hold whole events, which come parsed
 * from the upstream's check (`result.events`); a stream handed over without
 * them is framed and parsed here the same way.
 */
async function* rewriteStream(result: PassThroughResult, exchange: ResponsesExchange, ids: IdMap, channel: Channel): AsyncGenerator<Uint8Array> {
  let events = result.events;
  let body = result.body;
  if (!events) {
    const seen: TappedEvent[] = [];
    body = forwardEvents(body, acceptingTap, UNBOUNDED, undefined, seen);
    events = seen;
  }
  for await (const chunk of body) {
    const changes = await rewriteEvents(events, exchange, ids, channel);
    yield changes.length === 0 ? chunk : Buffer.from(spliced(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8'), changes, events));
  }
}

/** The upstream's reading already bounded and checked the bytes: nothing more is bounded or expected here. */
const UNBOUNDED: UpstreamLimits = { maxBodyBytes: Number.POSITIVE_INFINITY, maxStreamBytes: Number.POSITIVE_INFINITY, maxEventBytes: Number.POSITIVE_INFINITY };
const acceptingTap: StreamTap = { see() {}, ended: () => true, usage: () => undefined, id: () => undefined };

interface Change {
  /** The event's position in its chunk. */
  index: number;
  /** Its new data. */
  data: string;
}

/** Counts the events, records the terminal one, and answers the lifecycle events whose data changes (the ids). */
async function rewriteEvents(events: readonly TappedEvent[], exchange: ResponsesExchange, ids: IdMap, channel: Channel): Promise<Change[]> {
  const changes: Change[] = [];
  for (let i = 0; i < events.length; i++) {
    const { event, data, parsed } = events[i]!;
    exchange.sequence++;
    const type = event ?? typeOf(data);
    // Only lifecycle events carry the response object (a handful per stream); deltas pass untouched.
    if (type === undefined || !lifecycleEvents.has(type)) continue;
    const response = isObject(parsed) ? parsed.response : undefined;
    if (!response || typeof response !== 'object' || Array.isArray(response)) continue;
    // The event's response object, whose first key is its id (a quoted key cannot occur inside a JSON string).
    const original = ids.adopt(response as Record<string, unknown>);
    const swapped = original === undefined ? undefined : swapInText(data, '"response":{"id":', original, exchange.id);
    if (terminalEvents.has(type)) await record(exchange, response as Record<string, unknown>, ids.upstreamId, channel);
    changes.push({ index: i, data: swapped ?? JSON.stringify(parsed) });
  }
  return changes;
}

/**
 * The chunk's text with each changed event's data replaced where it stands,
 * every other byte kept; written anew, event by event, when a data is not
 * found as it was parsed (an event whose data spans several `data:` lines).
 */
function spliced(text: string, changes: Change[], events: readonly SseEvent[]): string {
  let out = '';
  let from = 0;
  for (const change of changes) {
    const at = text.indexOf(events[change.index]!.data, from);
    if (at === -1) return events.map((event, i) => frame(event, changes.find((c) => c.index === i)?.data ?? event.data)).join('');
    out += text.slice(from, at) + change.data;
    from = at + events[change.index]!.data.length;
  }
  return out + text.slice(from);
}

function frame(event: SseEvent, data: string): string {
  return event.event === undefined ? `data: ${data}\n\n` : `event: ${event.event}\ndata: ${data}\n\n`;
}

function typeOf(data: string): string | undefined {
  return /^\s*\{\s*"type"\s*:\s*"([^"]+)"/.exec(data)?.[1];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
