/**
 * The pass-through path's side channel: the upstream's bytes go to the client
 * untouched while the adapter's taps read usage and ids from them. The bytes
 * are also checked, once, in the same reading: a plain answer must be the
 * JSON it claims to be (read whole before delivery, so a bad one fails over),
 * a stream's events must parse and end with the dialect's last event.
 */
import type { CallSignal } from '../core/call-signal.js';
import type { Usage } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import type { StatusThrower } from './error-answer.js';
import { firstHeader, type UpstreamHeaders } from './headers.js';
import { requestOk, toUpstreamError } from './http.js';
import { requestWholeOk } from './whole-answer.js';
import { WholeBody } from './whole-body.js';
import { capBytes, limitsOf, type UpstreamLimits } from '../core/upstream-limits.js';
import type { DeliveredSoFar, DeliveredText } from './delivered-text.js';
import { forwardEvents, type StreamTap } from './pass-through-stream.js';
import type { TappedEvent } from './sse.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from './types.js';
import { callExchange } from './call-exchange.js';

export type { StreamTap } from './pass-through-stream.js';

/** What an adapter reads from a whole answer, given parsed (the one parse the gateway makes of it). */
export interface AnswerTap {
  read(answer: unknown): void;
  usage(): Partial<Usage> | undefined;
  id(): string | undefined;
  /**
   * The JSON-array stream form cut short: the elements that parsed from the
   * bytes the client received. The tap keeps their prompt counts and the
   * text they carried (`delivered`); never their running output counts.
   */
  readCut?(elements: unknown[]): void;
  readonly delivered?: DeliveredText;
  /** The text, tool-call arguments and reasoning of the answer read: what a plain answer without usage is charged for. Asked only then. */
  answerText?(): string;
}

/** What every tap keeps: the usage and the upstream's response id it read. */
export abstract class ReadingTap {
  protected reported: Partial<Usage> | undefined;
  protected responseId: string | undefined;

  usage(): Partial<Usage> | undefined {
    return this.reported;
  }

  id(): string | undefined {
    return this.responseId;
  }
}

/**
 * A stream re-framed as server-sent events: for an upstream that frames the
 * dialect's events otherwise (Bedrock's `application/vnd.amazon.eventstream`),
 * so that the dialect's readers and the pass-through read one framing.
 */
export type SseReframer = (body: AsyncIterable<Uint8Array>, call: UpstreamCall) => AsyncIterable<Uint8Array>;

export interface ForwardOptions {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** Whether the client asked for a streamed answer. */
  stream: boolean;
  /** Whether to expect server-sent events when the upstream names no content type; `stream` when absent. */
  sse?: boolean;
  /** The tap for an event stream and the tap for a whole answer. */
  taps: { sse: () => StreamTap; whole: () => AnswerTap };
  /** How a non-2xx answer becomes an error; the common one by default. */
  throwFor?: StatusThrower;
  /** How a stream framed otherwise becomes server-sent events (Bedrock's event streams); absent: it is forwarded as it comes. */
  reframe?: SseReframer;
}

/**
 * Sends the client's body upstream and hands back the upstream's bytes
 * untouched. A non-2xx answer, and a plain answer that is not JSON or over
 * the body bound, are thrown before anything reaches the client, so the
 * router can still fail over.
 */
export async function forwardUntouched(options: ForwardOptions, call: UpstreamCall): Promise<PassThroughResult> {
  const exchange = callExchange(call, options.url, options.headers, options.body, options.throwFor);
  const limits = limitsOf(call);
  const sse = options.sse ?? options.stream;
  // A plain answer is wanted whole: gathered as it arrives, with no body stream (whole-answer.ts).
  if (!options.stream) {
    const whole = await requestWholeOk(exchange, limits.maxBodyBytes);
    const contentType = contentTypeOf(whole.headers, sse);
    const body = new WholeBody(whole.bytes);
    if (contentType.startsWith('text/event-stream')) return forwardedEvents(whole.status, contentType, body, options, limits, call.signal);
    const tap = options.taps.whole();
    const answer = parseAnswer(whole.bytes, 'object');
    tap.read(answer);
    return { status: whole.status, contentType, body, answer, delivered: wholeDelivered(tap), usage: () => tap.usage(), responseId: () => tap.id() };
  }
  const res = await requestOk(exchange);
  if (options.reframe) return forwardedEvents(res.status, 'text/event-stream', options.reframe(res.body, call), options, limits, call.signal);
  const contentType = contentTypeOf(res.headers, sse);
  if (contentType.startsWith('text/event-stream')) return forwardedEvents(res.status, contentType, res.body, options, limits, call.signal);
  // A streamed JSON answer (Gemini's JSON-array form) goes out as it comes and is checked once whole.
  const tap = options.taps.whole();
  return { status: res.status, contentType, body: forwardJsonStream(res.body, tap, limits, call.signal), delivered: tap.delivered, usage: () => tap.usage(), responseId: () => tap.id() };
}

/** A plain answer goes out whole: all of it is delivered, read only if its usage is missing. */
function wholeDelivered(tap: AnswerTap): DeliveredSoFar | undefined {
  if (!tap.answerText) return undefined;
  return { commit() {}, text: () => tap.answerText!() };
}

/** The upstream's content type, or the one its answer is expected in when it names none. */
function contentTypeOf(headers: UpstreamHeaders, sse: boolean): string {
  return firstHeader(headers, 'content-type') ?? (sse ? 'text/event-stream' : 'application/json');
}

function forwardedEvents(status: number, contentType: string, body: AsyncIterable<Uint8Array>, options: ForwardOptions, limits: UpstreamLimits, signal: CallSignal): PassThroughResult {
  const tap = options.taps.sse();
  const events: TappedEvent[] = [];
  return { status, contentType, body: forwardEvents(body, tap, limits, signal, events), events, delivered: tap.delivered, usage: () => tap.usage(), responseId: () => tap.id() };
}

/** The client's bytes, or, when the channel maps the model to another name, the body re-serialised with it. */
export function bodyForUpstreamModel(request: PassThroughRequest, call: UpstreamCall): string | Buffer {
  return request.body.model === call.upstreamModel ? request.rawBody : JSON.stringify({ ...request.body, model: call.upstreamModel });
}

/**
 * Yields a streamed JSON body untouched, within the stream bound; after its
 * last byte, checks and reads it once. Cut short (the upstream failed, or the
 * client was gone), the tap reads the elements whole in what the client
 * received: a chunk counts as received once the pipeline asked for the next
 * one, which it does only after writing it.
 */
async function* forwardJsonStream(body: AsyncIterable<Uint8Array>, tap: AnswerTap, limits: UpstreamLimits, signal: CallSignal): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let written = 0;
  let whole = false;
  try {
    for await (const chunk of capBytes(body, limits.maxStreamBytes, 'the upstream stream')) {
      chunks.push(chunk);
      yield chunk;
      written = chunks.length;
    }
    whole = true;
  } catch (error) {
    throw toUpstreamError(error, signal);
  } finally {
    if (!whole && written > 0) tap.readCut?.(wholeElements(Buffer.concat(chunks.slice(0, written))));
  }
  tap.read(parseAnswer(Buffer.concat(chunks), 'array'));
}

/**
 * Parses an answer the upstream said is JSON. A 200 whose body is cut short,
 * is not JSON, or not the shape the dialect answers with is the upstream's failure.
 */
function parseAnswer(bytes: Uint8Array, shape: 'object' | 'array'): unknown {
  let answer: unknown;
  try {
    answer = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw new GatewayError('upstream_error', 'upstream answered with a body that is not valid JSON', { retryable: true });
  }
  const fits = shape === 'array' ? Array.isArray(answer) : typeof answer === 'object' && answer !== null && !Array.isArray(answer);
  if (!fits) throw new GatewayError('upstream_error', `upstream answered with JSON that is not an ${shape}`, { retryable: true });
  return answer;
}

/**
 * The elements of a JSON array that are whole in a prefix of it (`[{…},{…},{…`
 * gives the first two). Scans once for the end of each top-level element,
 * minding strings; an element that does not parse ends the reading.
 */
export function wholeElements(bytes: Buffer): unknown[] {
  const text = bytes.toString('utf8');
  const elements: unknown[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (depth === 1 && start < 0) start = i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 1 && start >= 0) {
        try {
          elements.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          return elements;
        }
        start = -1;
      }
    }
  }
  return elements;
}
