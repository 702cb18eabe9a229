/**
 * The OpenAI error shape: `{"error":{message, type, param, code}}`, the HTTP
 * status from the gateway error, and the headers the official clients read
 * (`x-should-retry`, `retry-after`). `code` is a stable word: a specific one
 * when the failure has one (`previous_response_not_found`,
 * `context_length_exceeded`…), else one derived from the error kind.
 */
import type { Dialect } from '../../core/chat.js';
import { detailFor, GatewayError, retryHeaders, type ErrorKind, type GatewayErrorOptions } from '../../core/errors.js';
import type { OpenAIErrorBody, OpenAIErrorObject } from './schema-error.js';

export type { OpenAIErrorBody, OpenAIErrorObject } from './schema-error.js';

/** A gateway error that carries its own OpenAI `code` (as the error's Responses detail). */
export class OpenAIError extends GatewayError {
  constructor(kind: ErrorKind, message: string, code: string, options: GatewayErrorOptions = {}) {
    super(kind, message, { ...options, detail: { dialect: 'responses', code } });
  }
}

const codeByKind: Record<ErrorKind, string> = {
  invalid_request: 'invalid_request',
  unsupported_feature: 'unsupported_parameter',
  authentication: 'invalid_api_key',
  permission: 'permission_denied',
  quota_exhausted: 'insufficient_quota',
  not_found: 'not_found',
  payload_too_large: 'request_too_large',
  rate_limited: 'rate_limit_exceeded',
  upstream_error: 'upstream_error',
  overloaded: 'overloaded',
  timeout: 'timeout',
  unavailable: 'service_unavailable',
  internal: 'internal_error',
};

export function errorType(status: number, kind: ErrorKind): string {
  if (kind === 'quota_exhausted') return 'insufficient_quota';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * The OpenAI error object. `dialect` is the OpenAI dialect the client speaks
 * (Responses, or Chat Completions, which shares the shape): an upstream
 * error of either OpenAI dialect keeps its own `code` (the two APIs share
 * their codes: `content_filter`, `context_length_exceeded`…), one of that
 * very dialect its `param` too (a field is named as its own dialect spells it).
 */
export function openAIErrorObject(err: GatewayError, dialect: Dialect = 'responses'): OpenAIErrorObject {
  const own = err.detail?.dialect === dialect ? err.detail : undefined;
  return {
    message: err.message,
    type: errorType(err.status, err.kind),
    param: err.param ?? own?.param ?? null,
    code: detailFor(err, dialect) ?? openAiCode(err) ?? codeByKind[err.kind],
  };
}

/** The code an upstream of the other OpenAI dialect gave. */
function openAiCode(err: GatewayError): string | undefined {
  const detail = err.detail;
  return detail && (detail.dialect === 'responses' || detail.dialect === 'chat-completions') ? detail.code : undefined;
}

export function renderOpenAIError(err: GatewayError, dialect: Dialect = 'responses'): { status: number; body: OpenAIErrorBody; headers: Record<string, string> } {
  const body: OpenAIErrorBody = { error: openAIErrorObject(err, dialect) };
  return { status: err.status, body, headers: retryHeaders(err, { shouldRetry: true }) };
}

export function previousResponseNotFound(id: string): OpenAIError {
  return new OpenAIError('not_found', `Previous response with id '${id}' not found.`, 'previous_response_not_found', {
    param: 'previous_response_id',
  });
}

export function responseNotFound(id: string): OpenAIError {
  return new OpenAIError('not_found', `Response with id '${id}' not found.`, 'not_found', { param: 'response_id' });
}

/**
 * The `error.code` of a failed response object, from the closed list the
 * dialect defines: rate limits say so, a refused prompt is `invalid_prompt`,
 * anything else is a `server_error` (the `error` event before it carries the
 * gateway's precise code).
 */
export function responseErrorCode(err: GatewayError): 'server_error' | 'rate_limit_exceeded' | 'invalid_prompt' {
  if (err.status === 429) return 'rate_limit_exceeded';
  if (err.status >= 400 && err.status < 500) return 'invalid_prompt';
  return 'server_error';
}
