/**
 * One exchange of a task client (image and video task APIs) answered with
 * JSON: the task call's signal and timeout (for the headers and for silence
 * in the body alike), its channel's keys masked out of any error text, the
 * channel's body bound, the answer gathered whole.
 */
import { limitsOf } from '../core/upstream-limits.js';
import type { TaskCall } from '../tasks/types.js';
import { joinUrl } from './http.js';
import { requestJsonOk } from './whole-answer.js';

export interface TaskJsonRequest {
  method: 'GET' | 'POST';
  /** Joined to the channel's base URL. */
  path: string;
  headers: Record<string, string>;
  /** Sent as JSON when present. */
  body?: unknown;
}

export function requestTaskJson<T>(call: TaskCall, request: TaskJsonRequest): Promise<T> {
  return requestJsonOk<T>(
    {
      url: joinUrl(call.channel.baseUrl, request.path),
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: call.signal,
      timeoutMs: call.timeoutMs,
      bodyTimeoutMs: call.timeoutMs,
      secrets: call.channel.apiKeys,
    },
    limitsOf(call).maxBodyBytes,
  );
}
