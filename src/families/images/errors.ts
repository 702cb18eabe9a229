/**
 * Family A answers: the envelope `{code, description, properties, result}`
 * and which HTTP status goes with each code. The spec leaves that pairing
 * open; the gateway's choice (also in the README):
 *
 * | HTTP | code | when |
 * |------|------|------|
 * | 200  | 1    | submitted (and success of modal, seed, upload) |
 * | 200  | 22   | submitted, queued behind other tasks of the account |
 * | 400  | 21   | parameter error: a field, a malformed or unknown customId, a parent not finished |
 * | 404  | 21   | the task named does not exist (or belongs to another key) |
 * | 401  | 24   | missing or invalid API key |
 * | 403  | 24   | the key may not use this action or address; no channel or account can take the task |
 * | 403  | 25   | insufficient balance |
 * | 429  | 23   | too many requests (with retry-after) |
 * | 500  | 23   | system error (gateway or upstream failure) |
 */
import { retryHeaders, type GatewayError } from '../../core/errors.js';

export const CODE = {
  submitted: 1,
  parameterError: 21,
  queued: 22,
  systemError: 23,
  accountUnavailable: 24,
  insufficientBalance: 25,
} as const;

export interface Envelope {
  code: number;
  description: string;
  properties?: Record<string, unknown>;
  result: unknown;
}

export function success(result: unknown, description = 'Submit success', properties: Record<string, unknown> = {}): Envelope {
  return { code: CODE.submitted, description, properties, result };
}

export interface RenderedEnvelopeError {
  status: number;
  body: Envelope;
  headers?: Record<string, string>;
}

export function renderError(error: GatewayError): RenderedEnvelopeError {
  const { status, code } = statusAndCode(error);
  const headers = error.retryAfterSeconds !== undefined ? retryHeaders(error) : undefined;
  return { status, body: { code, description: error.message, result: null }, headers };
}

function statusAndCode(error: GatewayError): { status: number; code: number } {
  switch (error.kind) {
    case 'invalid_request':
    case 'unsupported_feature':
    case 'payload_too_large':
      return { status: 400, code: CODE.parameterError };
    case 'not_found':
      return { status: 404, code: CODE.parameterError };
    case 'authentication':
      return { status: 401, code: CODE.accountUnavailable };
    case 'permission':
      return { status: 403, code: CODE.accountUnavailable };
    case 'quota_exhausted':
      return { status: 403, code: CODE.insufficientBalance };
    case 'rate_limited':
      return { status: 429, code: CODE.systemError };
    default:
      return { status: 500, code: CODE.systemError };
  }
}
