/**
 * One HTTP exchange of an upstream call: what the adapter says (address,
 * headers, body, how a refusal reads) and what every exchange of the call
 * shares (its abort signal, its header and silence bounds, and its key,
 * masked in any error text). Written once here so that a bound added to the
 * call reaches every exchange.
 */
import type { StatusThrower } from './error-answer.js';
import type { UpstreamRequestOptions } from './http.js';
import type { UpstreamCall } from './types.js';

export type CallExchange = UpstreamRequestOptions & { secrets: readonly string[]; throwStatus?: StatusThrower };

export function callExchange(call: UpstreamCall, url: string, headers: Record<string, string>, body: string | Buffer, throwStatus?: StatusThrower): CallExchange {
  return { url, headers, body, signal: call.signal, timeoutMs: call.timeoutMs, bodyTimeoutMs: call.idleTimeoutMs, secrets: [call.apiKey], throwStatus };
}
