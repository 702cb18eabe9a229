/**
 * Errors of the Messages dialect, both ways, from one table of error types
 * by status: the error a client gets (`{"type":"error","error":{type,message,
 * code},"request_id"}`; the top-level `type` is what @ai-sdk/anthropic
 * recognises, `code` is the spec's field and carries the gateway's stable
 * error kind), and the status an upstream's in-stream `event: error` means.
 */
import { retryHeaders, upstreamStatusError, type GatewayError } from '../../core/errors.js';
import type { MessagesErrorObject, MessagesErrorType } from './wire.js';

export type { MessagesErrorObject, MessagesErrorType } from './wire.js';

// By the status the client sees, so the type always agrees with the status the
// official clients pick their error class by; every gateway error kind lands
// here with its default status (quota_exhausted: 403, unavailable: 503, …).
const typeByStatus: Record<number, MessagesErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function messagesErrorType(status: number): MessagesErrorType {
  // Other 4xx are invalid_request_error, as the API itself answers them.
  return typeByStatus[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The `error` object of an error body or stream event: the Anthropic upstream's own when it wrote one. */
export function messagesErrorObject(err: GatewayError): MessagesErrorObject | object {
  const reply = err.upstreamReply;
  if (reply?.dialect === 'messages') return (reply.body as { error: object }).error;
  return { type: messagesErrorType(err.status), message: err.message, code: err.kind };
}

/**
 * The error a Messages client gets: an Anthropic upstream's own answer as it
 * wrote it (pass-through, no other channel left to try), else the gateway's.
 */
export function renderMessagesError(err: GatewayError, requestId: string): { status: number; body: object; headers: Record<string, string> } {
  const reply = err.upstreamReply;
  if (reply?.dialect === 'messages') return { status: reply.status, body: reply.body as object, headers: reply.headers };
  return {
    status: err.status,
    body: { type: 'error', error: messagesErrorObject(err), request_id: requestId },
    headers: retryHeaders(err, { shouldRetry: true }),
  };
}

const statusByErrorType = new Map(Object.entries(typeByStatus).map(([status, type]) => [type as string, Number(status)]));

/** Errors the Messages API reports inside a stream (`event: error`), mapped like HTTP errors. */
export function errorFromStreamEvent(data: { error?: { type?: string; message?: string } }): GatewayError {
  const type = data.error?.type ?? 'api_error';
  const message = data.error?.message || `upstream stream failed (${type})`;
  return upstreamStatusError(statusByErrorType.get(type) ?? 500, message);
}
