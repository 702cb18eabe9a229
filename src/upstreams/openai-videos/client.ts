/**
 * HTTP exchanges with an OpenAI-style videos API under the channel's `/v1`
 * prefix, `Authorization: Bearer <key>`. Transport failures, 5xx and slow
 * answers become retryable GatewayErrors; the upstream's own messages are
 * kept (with the channel's key masked).
 */
import type { TaskCall } from '../../tasks/types.js';
import { joinUrl, jsonObjectAnswer, requestOk, type UpstreamRequestOptions, type UpstreamResponse } from '../http.js';
import { requestJsonOk } from '../whole-answer.js';
import { limitsOf } from '../../core/upstream-limits.js';

export interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  body?: Buffer | string;
  contentType?: string;
  accept?: string;
}

function requestOptions(call: TaskCall, exchange: Exchange): UpstreamRequestOptions & { secrets: readonly string[] } {
  const headers: Record<string, string> = { accept: exchange.accept ?? 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  if (exchange.contentType) headers['content-type'] = exchange.contentType;
  return {
    url: joinUrl(call.channel.baseUrl, exchange.path),
    method: exchange.method,
    headers,
    body: exchange.body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    bodyTimeoutMs: Math.max(call.timeoutMs, 60_000),
    secrets: call.channel.apiKeys,
  };
}

/** An exchange whose body the caller reads (a video's bytes). */
export function send(call: TaskCall, exchange: Exchange): Promise<UpstreamResponse> {
  return requestOk(requestOptions(call, exchange));
}

/** An exchange answered with a JSON object, gathered whole. */
export async function sendJson<T>(call: TaskCall, exchange: Exchange): Promise<T> {
  return jsonObjectAnswer(await requestJsonOk<T>(requestOptions(call, exchange), limitsOf(call).maxBodyBytes));
}
