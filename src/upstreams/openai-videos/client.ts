/**
 * HTTP exchanges with an OpenAI-style videos API under the channel's `/v1`
 * prefix, `Authorization: Bearer <key>`. Transport failures, 5xx and slow
 * answers become retryable GatewayErrors; the upstream's own messages are
 * kept (with the channel's key masked).
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskCall } from '../../tasks/types.js';
import { joinUrl, readJsonBody, requestOk, type UpstreamResponse } from '../http.js';
import { limitsOf } from '../../core/upstream-limits.js';

export interface Exchange {
  method: 'GET' | 'POST';
  path: string;
  body?: Buffer | string;
  contentType?: string;
  accept?: string;
}

export async function send(call: TaskCall, exchange: Exchange): Promise<UpstreamResponse> {
  const headers: Record<string, string> = { accept: exchange.accept ?? 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  if (exchange.contentType) headers['content-type'] = exchange.contentType;
  const response = await requestOk({
    url: joinUrl(call.channel.baseUrl, exchange.path),
    method: exchange.method,
    headers,
    body: exchange.body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    bodyTimeoutMs: Math.max(call.timeoutMs, 60_000),
    secrets: call.channel.apiKeys,
  });
  return response;
}

export async function sendJson<T>(call: TaskCall, exchange: Exchange): Promise<T> {
  const response = await send(call, exchange);
  const parsed = await readJsonBody<T>(response.body, call.signal, limitsOf(call).maxBodyBytes);
  if (typeof parsed !== 'object' || parsed === null) throw new GatewayError('upstream_error', 'the upstream answered something other than a JSON object', { retryable: true });
  return parsed;
}
