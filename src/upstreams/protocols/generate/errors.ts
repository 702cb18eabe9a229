/**
 * Gemini error bodies → gateway errors. The service's status word (e.g.
 * FAILED_PRECONDITION) is kept as the error's `generate` detail, so a client
 * of the same dialect gets the word the service chose. A refused
 * channel key comes back from Gemini as a 400 (API_KEY_INVALID): it is the
 * channel's credential, not the client's request, so it is treated as a 401.
 */
import { GatewayError, upstreamStatusError } from '../../../core/errors.js';
import { readErrorText } from '../../error-answer.js';
import { retryAfterFromHeaders, type UpstreamHeaders } from '../../headers.js';
import type { GeminiError } from '../../../dialects/generate/wire.js';

export function geminiError(status: number, error: GeminiError | undefined, fallback: string, retryAfterHeader?: number): GatewayError {
  const message = error?.message || fallback;
  const effective = status === 400 && isKeyRefusal(error) ? 401 : status;
  const mapped = upstreamStatusError(effective, message, retryAfterHeader ?? retryDelay(error?.details));
  if (!error?.status) return mapped;
  return new GatewayError(mapped.kind, mapped.message, {
    status: mapped.status,
    upstreamStatus: mapped.upstreamStatus,
    retryAfterSeconds: mapped.retryAfterSeconds,
    retryable: mapped.retryable,
    detail: { dialect: 'generate', code: error.status },
  });
}

/** Drains a non-2xx body (at most 64 KiB) and throws the gateway error it describes; the channel key is masked. */
export async function throwGeminiStatus(status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[] = []): Promise<never> {
  let text = await readErrorText(body);
  for (const secret of secrets) if (secret.length >= 8) text = text.split(secret).join('[redacted]');
  const error = parseError(text);
  const fallback = text.trim() === '' ? `upstream answered HTTP ${status}` : text.trim().slice(0, 500);
  throw geminiError(status, error, fallback, retryAfterFromHeaders(headers));
}

/** `{error:{…}}`, or a one-element array of it (the non-SSE stream form). */
function parseError(text: string): GeminiError | undefined {
  try {
    let parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) parsed = parsed[0];
    const error = (parsed as { error?: unknown } | null)?.error;
    return error && typeof error === 'object' ? (error as GeminiError) : undefined;
  } catch {
    return undefined;
  }
}

function isKeyRefusal(error: GeminiError | undefined): boolean {
  if (!error) return false;
  if (error.details?.some((detail) => (detail as { reason?: unknown } | null)?.reason === 'API_KEY_INVALID')) return true;
  return /api key not valid/i.test(error.message ?? '');
}

/** RetryInfo `retryDelay: "34.4s"` → whole seconds, rounded up. */
function retryDelay(details: unknown[] | null | undefined): number | undefined {
  for (const detail of details ?? []) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    if (typeof delay === 'string' && /^\d+(\.\d+)?s$/.test(delay)) return Math.ceil(Number.parseFloat(delay));
  }
  return undefined;
}
