/**
 * Upstream HTTP plumbing shared by every adapter: one keep-alive undici Agent,
 * a request helper that turns transport failures into GatewayErrors, and the
 * reading of upstream error bodies.
 *
 * undici's dispatcher API is used rather than global fetch: fetch costs several
 * times more per request on Node 20 (see the performance research notes).
 */
import type { CallSignal } from '../core/call-signal.js';
import type { Agent, Dispatcher } from 'undici';
import { GatewayError, upstreamStatusError } from '../core/errors.js';
import { loadUndici } from '../core/undici.js';

/** Failing to open a TCP/TLS connection this fast means the upstream is unreachable; try the next channel. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A body that stays silent this long is considered dead, when the caller sets no bound of its own. */
const BODY_TIMEOUT_MS = 5 * 60_000;
/** Error bodies are read up to this size; anything beyond is not worth keeping. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

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
export type UpstreamHeaders = Record<string, string | string[] | undefined>;

export interface UpstreamRequestOptions {
  url: string;
  method?: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string | Buffer;
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
export async function requestOk(
  opts: UpstreamRequestOptions & { secrets: readonly string[]; throwStatus?: StatusThrower },
): Promise<UpstreamResponse> {
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

const connectErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
]);

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
  if (code === 'UND_ERR_HEADERS_TIMEOUT')
    return new GatewayError('timeout', 'upstream did not answer in time', { retryable: true, cause: error });
  if (code === 'UND_ERR_BODY_TIMEOUT')
    return new GatewayError('timeout', 'upstream went silent while sending its answer', { retryable: true, cause: error });
  if (typeof code === 'string' && connectErrorCodes.has(code))
    return new GatewayError('unavailable', `upstream connection failed (${code})`, { retryable: true, cause: error });
  if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'ECONNABORTED')
    return new GatewayError('upstream_error', 'upstream connection closed before the answer was complete', {
      retryable: true,
      cause: error,
    });
  if (error instanceof SyntaxError)
    return new GatewayError('upstream_error', `upstream sent malformed data: ${error.message}`, { retryable: true, cause: error });
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

/**
 * Drains a non-2xx body (at most 64 KiB are kept) and extracts the upstream's
 * message from the common shapes: `{error:{message}}`, `{error:"..."}`,
 * `{message}`, a one-element array of those (Gemini streams), or plain text.
 */
export async function readErrorBody(
  body: AsyncIterable<Uint8Array>,
): Promise<{ message: string; retryAfterSeconds?: number }> {
  return parseErrorText(await readErrorText(body));
}

/** Reads a whole body, refusing one larger than `maxBytes` (the download is cut there; not retryable). */
export function readBodyLimited(body: UpstreamBody, maxBytes: number, what: string, signal?: CallSignal): Promise<Buffer> {
  return collectBody(body, maxBytes, () => new GatewayError('upstream_error', `${what} is larger than ${maxBytes} bytes`), signal);
}

/** Drains an error body, keeping at most 64 KiB of it, as text. */
export async function readErrorText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const kept = chunk.byteLength <= MAX_ERROR_BODY_BYTES - size ? chunk : chunk.subarray(0, MAX_ERROR_BODY_BYTES - size);
      chunks.push(kept);
      size += kept.byteLength;
      if (size >= MAX_ERROR_BODY_BYTES) break; // leaving the loop destroys the stream
    }
  } catch {
    // A body cut while we read an error is still an error; keep what arrived.
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseErrorText(text: string): { message: string; retryAfterSeconds?: number } {
  const trimmed = text.trim();
  if (trimmed === '') return { message: '' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { message: trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed };
  }
  if (Array.isArray(parsed)) parsed = parsed[0];
  const root = (parsed ?? {}) as Record<string, unknown>;
  const error = root.error;
  let message: string | undefined;
  let details: unknown;
  if (typeof error === 'string') message = error;
  else if (error && typeof error === 'object') {
    const inner = error as Record<string, unknown>;
    if (typeof inner.message === 'string') message = inner.message;
    details = inner.details;
  }
  if (message === undefined && typeof root.message === 'string') message = root.message;
  if (message === undefined && typeof root.detail === 'string') message = root.detail;
  return { message: message ?? trimmed.slice(0, 500), retryAfterSeconds: retryDelayFromDetails(details) };
}

/** Gemini-style `details: [{ "@type": "...RetryInfo", retryDelay: "34.4s" }]`. */
function retryDelayFromDetails(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay)) return Math.ceil(Number.parseFloat(delay));
  }
  return undefined;
}

function headerValue(headers: UpstreamHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `retry-after-ms`, then `retry-after` as seconds or as an HTTP date; whole seconds, rounded up. */
export function retryAfterFromHeaders(headers: UpstreamHeaders, now = Date.now()): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms) / 1000);
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Builds the GatewayError for a non-2xx upstream answer (after draining its
 * body) and throws it. `secrets` (the channel's key) are masked in the message,
 * in case an upstream echoes the credential back.
 */
export async function throwForStatus(
  status: number,
  headers: UpstreamHeaders,
  body: AsyncIterable<Uint8Array>,
  secrets: readonly string[] = [],
): Promise<never> {
  throw statusErrorFromText(status, headers, await readErrorText(body), secrets);
}

/** The gateway error an upstream's non-2xx answer describes, from its (already read) body text; the channel keys are masked. */
export function statusErrorFromText(status: number, headers: UpstreamHeaders, text: string, secrets: readonly string[] = []): GatewayError {
  const parsed = parseErrorText(text);
  let message = parsed.message || `upstream answered HTTP ${status}`;
  for (const secret of secrets) if (secret.length >= 8) message = message.split(secret).join('[redacted]');
  return upstreamStatusError(status, message, retryAfterFromHeaders(headers) ?? parsed.retryAfterSeconds);
}

/** Joins a channel base URL and a path, tolerant of a trailing slash on the base and a missing one on the path. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  return path.startsWith('/') ? base + path : `${base}/${path}`;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** First value of a request header that may have been sent several times. */
export function firstHeader(headers: UpstreamHeaders, name: string): string | undefined {
  return headerValue(headers, name);
}

/** Turns a non-2xx answer into a thrown gateway error (the default is `throwForStatus`). */
export type StatusThrower = (status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[]) => Promise<never>;
