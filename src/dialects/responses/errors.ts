/** Failures the Responses API reports inside a stream (`error` events, `response.failed`), mapped like HTTP errors. */
import { upstreamStatusError, type GatewayError } from '../../core/errors.js';
import type { WireError, WireEvent } from './wire.js';

const statusByCode: Record<string, number> = {
  invalid_request_error: 400,
  invalid_prompt: 400,
  context_length_exceeded: 400,
  authentication_error: 401,
  invalid_api_key: 401,
  permission_error: 403,
  not_found: 404,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  vector_store_timeout: 504,
};

function statusOf(error: WireError): number {
  return statusByCode[error.code ?? ''] ?? statusByCode[error.type ?? ''] ?? 500;
}

export function errorFromStreamEvent(event: WireEvent): GatewayError {
  const error: WireError = event.error ?? { code: event.code, message: event.message, param: event.param };
  const word = error.code ?? error.type ?? 'error';
  return upstreamStatusError(statusOf(error), error.message || `upstream stream failed (${word})`);
}

export function errorFromFailedResponse(error: WireError | null | undefined): GatewayError {
  const failure = error ?? {};
  return upstreamStatusError(statusOf(failure), failure.message || `upstream response failed (${failure.code ?? 'unknown'})`);
}
