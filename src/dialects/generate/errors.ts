/**
 * The dialect's error shape, `{"error":{"code":<http status>,"message","status"}}`,
 * with the spec's status table. Gateway errors whose HTTP status the table
 * does not list are placed on the nearest row (a bad upstream answer is
 * INTERNAL, every upstream overloaded is UNAVAILABLE). A 429 carries the wait
 * both as `retry-after` and as the service's RetryInfo detail.
 */
import { detailFor, retryHeaders, type GatewayError } from '../../core/errors.js';
import type { GoogleErrorBody } from './wire.js';

export type GoogleStatus = GoogleErrorBody['error']['status'];

const statusByCode: Record<number, GoogleStatus> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Status words an upstream of this dialect may have given, kept when they fit the HTTP code. */
const upstreamStatuses: Record<string, number> = { FAILED_PRECONDITION: 400, INVALID_ARGUMENT: 400 };

export function googleCode(error: GatewayError): number {
  if (statusByCode[error.status]) return error.status;
  if (error.kind === 'overloaded' || error.kind === 'unavailable') return 503;
  if (error.kind === 'timeout') return 504;
  if (error.kind === 'rate_limited') return 429;
  if (error.status >= 500) return 500;
  // Other 4xx (405, 415…) are malformed requests.
  return error.status === 408 ? 504 : 400;
}

/** The status word: the one an upstream of this dialect reported when it fits, else the table's. */
export function googleStatus(error: GatewayError, code: number): GoogleStatus {
  const reported = detailFor(error, 'generate');
  if (reported !== undefined && upstreamStatuses[reported] === code) return reported as GoogleStatus;
  return statusByCode[code];
}

export function googleErrorBody(error: GatewayError): GoogleErrorBody {
  const code = googleCode(error);
  const body: GoogleErrorBody = { error: { code, message: error.message, status: googleStatus(error, code) } };
  if (error.retryAfterSeconds !== undefined && code === 429) {
    body.error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${Math.max(0, Math.ceil(error.retryAfterSeconds))}s` }];
  }
  return body;
}

export function renderGenerateError(error: GatewayError): { status: number; body: GoogleErrorBody; headers: Record<string, string> } {
  const body = googleErrorBody(error);
  return { status: body.error.code, body, headers: retryHeaders(error) };
}
