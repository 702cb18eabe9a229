/** Errors the Messages API reports inside a stream (`event: error`), mapped like HTTP errors. */
import { upstreamStatusError, type GatewayError } from '../../core/errors.js';

const statusByErrorType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function errorFromStreamEvent(data: { error?: { type?: string; message?: string } }): GatewayError {
  const type = data.error?.type ?? 'api_error';
  const message = data.error?.message || `upstream stream failed (${type})`;
  return upstreamStatusError(statusByErrorType[type] ?? 500, message);
}
