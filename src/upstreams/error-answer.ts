/**
 * An upstream's non-2xx answer read into a gateway error: the body drained
 * (at most 64 KiB kept), the upstream's message found in the common shapes,
 * the retry delay taken from the headers or the body.
 */
import { upstreamStatusError, type GatewayError } from '../core/errors.js';
import { retryAfterFromHeaders, type UpstreamHeaders } from './headers.js';

/** Error bodies are read up to this size; anything beyond is not worth keeping. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * Drains a non-2xx body (at most 64 KiB are kept) and extracts the upstream's
 * message from the common shapes: `{error:{message}}`, `{error:"..."}`,
 * `{message}`, a one-element array of those (Gemini streams), or plain text.
 */
export async function readErrorBody(body: AsyncIterable<Uint8Array>): Promise<{ message: string; retryAfterSeconds?: number }> {
  return parseErrorText(await readErrorText(body));
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

/**
 * Builds the GatewayError for a non-2xx upstream answer (after draining its
 * body) and throws it. `secrets` (the channel's key) are masked in the message,
 * in case an upstream echoes the credential back.
 */
export async function throwForStatus(status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[] = []): Promise<never> {
  throw statusErrorFromText(status, headers, await readErrorText(body), secrets);
}

/** The gateway error an upstream's non-2xx answer describes, from its (already read) body text; the channel keys are masked. */
export function statusErrorFromText(status: number, headers: UpstreamHeaders, text: string, secrets: readonly string[] = []): GatewayError {
  const parsed = parseErrorText(text);
  let message = parsed.message || `upstream answered HTTP ${status}`;
  for (const secret of secrets) if (secret.length >= 8) message = message.split(secret).join('[redacted]');
  return upstreamStatusError(status, message, retryAfterFromHeaders(headers) ?? parsed.retryAfterSeconds);
}

/** Turns a non-2xx answer into a thrown gateway error (the default is `throwForStatus`). */
export type StatusThrower = (status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[]) => Promise<never>;
