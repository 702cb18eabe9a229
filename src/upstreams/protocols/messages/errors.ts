/**
 * An Anthropic upstream's non-2xx answer on the pass-through path. The error
 * is the usual gateway error (so failover, breakers and logs treat it as
 * every upstream's), carrying the answer as written: Claude Code and the
 * official clients match their recovery on its status, `error.type` and
 * wording ("prompt is too long", `overloaded_error`, `rate_limit_error` with
 * `retry-after`), so a Messages client that no other channel can serve gets
 * it unchanged. Only a body in Anthropic's error shape is kept; anything
 * else (an HTML page from a proxy) is rendered by the gateway.
 */
import { GatewayError } from '../../../core/errors.js';
import { readErrorText, statusErrorFromText } from '../../error-answer.js';
import type { UpstreamHeaders } from '../../headers.js';

/** Response headers a Messages client reads on an error: when to retry, whether to, and the rate-limit state. */
const keptHeader = /^(retry-after|retry-after-ms|x-should-retry|anthropic-ratelimit-.*)$/;

export async function throwMessagesError(status: number, headers: UpstreamHeaders, body: AsyncIterable<Uint8Array>, secrets: readonly string[]): Promise<never> {
  const text = masked(await readErrorText(body), secrets);
  const error = statusErrorFromText(status, headers, text, secrets);
  const answer = anthropicErrorBody(text);
  if (!answer) throw error;
  throw new GatewayError(error.kind, error.message, {
    status: error.status,
    upstreamStatus: error.upstreamStatus,
    retryAfterSeconds: error.retryAfterSeconds,
    retryable: error.retryable,
    upstreamReply: { dialect: 'messages', status, body: answer, headers: keptHeaders(headers) },
  });
}

function masked(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 8) result = result.split(secret).join('[redacted]');
  return result;
}

/** The body when it is Anthropic's error JSON (`{"type":"error","error":{"type","message"}}`), else undefined. */
function anthropicErrorBody(text: string): object | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { type?: unknown }).type !== 'error') return undefined;
  const inner = (parsed as { error?: unknown }).error as { type?: unknown; message?: unknown } | undefined;
  return inner && typeof inner.type === 'string' && typeof inner.message === 'string' ? parsed : undefined;
}

function keptHeaders(headers: UpstreamHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || !keptHeader.test(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
