/**
 * Upstream HTTP plumbing shared by every adapter: one keep-alive undici Agent,
 * a request helper that turns transport failures into GatewayErrors, and the
 * reading of upstream bodies (error answers are read in `error-answer.ts`).
 *
 * undici's dispatcher API is used rather than global fetch: fetch costs several
 * times more per request on Node 20 (see the performance research notes).
 */
import type { Readable } from 'node:stream';
import type { CallSignal } from '../core/call-signal.js';
import type { Agent, Dispatcher } from 'undici';
import { GatewayError } from '../core/errors.js';
import { loadUndici } from '../core/undici.js';
import { throwForStatus, type StatusThrower } from './error-answer.js';
import type { UpstreamHeaders } from './headers.js';

/** Failing to open a TCP/TLS connection this fast means the upstream is unreachable; try the next channel. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A body that stays silent this long is considered dead, when the caller sets no bound of its own. */
const BODY_TIMEOUT_MS = 5 * 60_000;

/** The shared keep-alive agent, made on the first upstream call (undici loads then, not at start-up). */
let upstreamAgent: Agent | undefined;

async function createUpstreamAgent(): Promise<Agent> {
  const { Agent } = await loadUndici();
  upstreamAgent ??= new Agent({
    connections: 512,
    pipelining: 1,
    keepAliveTimeout: 4_000,
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });
  return upstreamAgent;
}

export type UpstreamBody = Dispatcher.ResponseData['body'];

export interface UpstreamRequestOptions {
  url: string;
  method?: 'POST' | 'GET' | 'DELETE';
  headers: Record<string, string>;
  /** A stream is sent as it is read (an upload: chunked). */
  body?: string | Buffer | Readable;
  signal: CallSignal;
  /**
   * Bound on the wait for the response headers (undici headersTimeout). undici
   * checks it on a coarse clock: expect it to fire up to about a second late.
   */
  timeoutMs: number;
  /** Bound on silence while the body arrives (undici bodyTimeout, on the same coarse clock); defaults to five minutes. */
  bodyTimeoutMs?: number;
}

export interface UpstreamResponse {
  status: number;
  headers: UpstreamHeaders;
  body: UpstreamBody;
}

/** Channel URLs repeat: split each once into origin and path instead of parsing it per request. */
const splitUrls = new Map<string, { origin: string; path: string }>();

function splitUrl(url: string): { origin: string; path: string } {
  let split = splitUrls.get(url);
  if (!split) {
    const parsed = new URL(url);
    split = { origin: parsed.origin, path: parsed.pathname + parsed.search };
    if (splitUrls.size >= 1000) splitUrls.clear();
    splitUrls.set(url, split);
  }
  return split;
}

/**
 * One upstream exchange that must succeed, as every adapter and task client
 * makes it: sent, then a non-2xx answer turned into the gateway error it
 * describes (by the upstream's own error reader when it has one), with the
 * credentials masked out of any text kept.
 */
export async function requestOk(opts: UpstreamRequestOptions & { secrets: readonly string[]; throwStatus?: StatusThrower }): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    response = asResponse(await send(opts));
  } catch (error) {
    throw toUpstreamError(error, opts.signal);
  }
  if (!isSuccess(response.status)) await (opts.throwStatus ?? throwForStatus)(response.status, response.headers, response.body, opts.secrets);
  return response;
}

/** undici's request for one exchange (the agent is made on the first one). */
function send(opts: UpstreamRequestOptions): Promise<Dispatcher.ResponseData> {
  const options = exchangeOptions(opts);
  return upstreamAgent ? upstreamAgent.request(options) : createUpstreamAgent().then((agent) => agent.request(options));
}

/** What undici is told of one exchange, for `request` and for `dispatch` alike (which ignores the signal). */
export function exchangeOptions(opts: UpstreamRequestOptions): Dispatcher.RequestOptions {
  const { origin, path } = splitUrl(opts.url);
  return {
    origin,
    path,
    method: opts.method ?? 'POST',
    headers: opts.headers,
    body: opts.body,
    signal: opts.signal,
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
  };
}

/** The shared keep-alive agent, or the promise of it on the first call. */
export function sharedAgent(): Agent | Promise<Agent> {
  return upstreamAgent ?? createUpstreamAgent();
}

function asResponse(res: Dispatcher.ResponseData): UpstreamResponse {
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

const connectErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/**
 * Maps a transport failure (connect error, timeout, abort, socket cut) to a
 * GatewayError. Messages name the failure, never the URL (it may carry credentials).
 * GatewayErrors pass through unchanged, so stream converters can wrap whole loops.
 */
export function toUpstreamError(error: unknown, signal?: CallSignal): GatewayError {
  if (error instanceof GatewayError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof GatewayError) return reason;
    const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
    return new GatewayError(timedOut ? 'timeout' : 'unavailable', timedOut ? 'upstream request timed out' : 'upstream request aborted', {
      retryable: true,
      cause: error,
    });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return new GatewayError('timeout', 'upstream did not answer in time', { retryable: true, cause: error });
  if (code === 'UND_ERR_BODY_TIMEOUT') return new GatewayError('timeout', 'upstream went silent while sending its answer', { retryable: true, cause: error });
  if (typeof code === 'string' && connectErrorCodes.has(code)) return new GatewayError('unavailable', `upstream connection failed (${code})`, { retryable: true, cause: error });
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'ECONNABORTED')
    return new GatewayError('upstream_error', 'upstream connection closed before the answer was complete', {
      retryable: true,
      cause: error,
    });
  if (error instanceof SyntaxError) return new GatewayError('upstream_error', `upstream sent malformed data: ${error.message}`, { retryable: true, cause: error });
  const detail = typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
  return new GatewayError('upstream_error', `upstream request failed (${detail})`, { retryable: true, cause: error });
}

const ignoreError = () => {};

/**
 * Collects a body up to `maxBytes`; beyond, the body is destroyed (which
 * aborts the upstream request) and `overflow()` is the rejection. Read by
 * events, not async iteration: one promise per body instead of several per chunk.
 */
function collectBody(body: UpstreamBody, maxBytes: number, overflow: () => GatewayError, signal?: CallSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      finish();
      // Destroying emits undici's abort error, which is this rejection's cause, not news.
      body.on('error', ignoreError);
      body.destroy();
      reject(overflow());
    };
    const onEnd = () => {
      finish();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: unknown) => {
      finish();
      reject(toUpstreamError(error, signal));
    };
    // Closed without an end (or already destroyed): the answer was cut short.
    const onClose = () => onError(Object.assign(new Error('body closed early'), { code: 'ECONNABORTED' }));
    if (body.destroyed) return onClose();
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

/** An answer's bytes as JSON; malformed JSON is the upstream's (retryable) fault. */
export function parseJsonAnswer<T>(bytes: Buffer): T {
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    throw new GatewayError('upstream_error', 'upstream answered with a body that is not valid JSON', { retryable: true });
  }
}

/** A parsed answer that must be a JSON object (task APIs answer with one); anything else is the upstream's retryable fault. */
export function jsonObjectAnswer<T>(parsed: T): T {
  if (typeof parsed !== 'object' || parsed === null) throw new GatewayError('upstream_error', 'the upstream answered something other than a JSON object', { retryable: true });
  return parsed;
}

/** Reads a whole body, refusing one larger than `maxBytes` (the download is cut there; not retryable). */
export function readBodyLimited(body: UpstreamBody, maxBytes: number, what: string, signal?: CallSignal): Promise<Buffer> {
  return collectBody(body, maxBytes, () => new GatewayError('upstream_error', `${what} is larger than ${maxBytes} bytes`), signal);
}

/** Joins a channel base URL and a path, tolerant of a trailing slash on the base and a missing one on the path. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  return path.startsWith('/') ? base + path : `${base}/${path}`;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
