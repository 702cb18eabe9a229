/**
 * Maps the HTTP framework's own errors (body too large, bad content type, a
 * malformed URL, an over-long path parameter…) onto gateway errors, so each
 * family renders them in its own shape. Shared by the app's last-resort
 * handler and every family's scope, so it lives apart from the app assembly
 * they are registered from.
 */
import { GatewayError, toGatewayError } from '../core/errors.js';

/** Path parameters (ids) longer than this are refused by the router with 414 (see README, "Limits"). */
export const MAX_PATH_PARAM_LENGTH = 128;

export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('payload_too_large', 'request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('invalid_request', 'unsupported content-type; send application/json', { status: 415 });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError('invalid_request', 'request body is empty; send a JSON object');
    case 'FST_ERR_BAD_URL':
      return new GatewayError('invalid_request', 'the request path is not a valid URL (bad percent-encoding)');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError('invalid_request', `a path segment is longer than ${MAX_PATH_PARAM_LENGTH} characters`, { status: 414 });
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return toGatewayError(error);
  }
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) return new GatewayError('invalid_request', message, { status });
  return toGatewayError(error);
}
