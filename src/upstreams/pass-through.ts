/**
 * The pass-through path's side channel: the upstream's bytes are yielded as
 * they arrive, untouched, while the adapter watches them for usage and ids.
 * Each adapter decides what to watch; the loops live here once.
 */
import type { Usage } from '../core/chat.js';
import { firstHeader, requestExpectingSuccess, toUpstreamError, type StatusThrower } from './http.js';
import { createSseFeeder, type SseEvent } from './sse.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from './types.js';

/** What an adapter watches in the bytes it forwards. */
export interface UsageTap {
  pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array>;
  usage(): Usage | undefined;
  id(): string | undefined;
}

/** A tap that records what it read: the usage and the upstream's response id. */
export abstract class RecordingTap implements UsageTap {
  protected reported: Usage | undefined;
  protected responseId: string | undefined;

  abstract pipe(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array>;

  usage(): Usage | undefined {
    return this.reported;
  }

  id(): string | undefined {
    return this.responseId;
  }
}

export interface ForwardOptions {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** Whether the client asked for a stream (the content type decides when the upstream names one). */
  stream: boolean;
  /** The tap for an event stream and the tap for a whole body. */
  taps: { sse: () => UsageTap; whole: () => UsageTap };
  /** How a non-2xx answer becomes an error; the common one by default. */
  throwFor?: StatusThrower;
}

/**
 * Sends the client's body upstream and hands back the upstream's bytes
 * untouched. A non-2xx answer is thrown before anything reaches the client,
 * so the router can still fail over.
 */
export async function forwardUntouched(options: ForwardOptions, call: UpstreamCall): Promise<PassThroughResult> {
  const res = await requestExpectingSuccess(options, call);
  const contentType = firstHeader(res.headers, 'content-type') ?? (options.stream ? 'text/event-stream' : 'application/json');
  const tap = contentType.startsWith('text/event-stream') ? options.taps.sse() : options.taps.whole();
  return {
    status: res.status,
    contentType,
    body: tap.pipe(res.body, call.signal),
    usage: () => tap.usage(),
    responseId: () => tap.id(),
  };
}

/** The client's bytes, or, when the channel maps the model to another name, the body re-serialised with it. */
export function bodyForUpstreamModel(request: PassThroughRequest, call: UpstreamCall): string | Buffer {
  return request.body.model === call.upstreamModel ? request.rawBody : JSON.stringify({ ...request.body, model: call.upstreamModel });
}

/** Yields an SSE body untouched; `watch` sees its events as they complete. */
export async function* tapSse(
  body: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
  watch: (events: SseEvent[]) => void,
): AsyncGenerator<Uint8Array> {
  const feeder = createSseFeeder();
  try {
    for await (const chunk of body) {
      watch(feeder.feed(chunk));
      yield chunk;
    }
    watch(feeder.drain());
  } catch (error) {
    throw toUpstreamError(error, signal);
  }
}

/** Yields a body untouched; after its last byte went out, `read` gets the whole text, once. */
export async function* tapWhole(
  body: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
  read: (text: string) => void,
): AsyncGenerator<Uint8Array> {
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
  read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

/** The bytes already went to the client: a body we cannot read only costs us the usage, never the answer. */
export function parseOrUndefined<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
