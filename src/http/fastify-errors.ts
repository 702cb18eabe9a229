/**
 * Maps Fastify's own errors (body too large, bad content type…) onto gateway
 * errors. Shared by the app's last-resort handler and every family's scope,
 * so it lives apart from the app assembly they are registered from.
 */
import { GatewayError, toGatewayError } from '../core/errors.js';

export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new GatewayError('payload_too_large', 'request body is too large');
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new GatewayError('invalid_request', 'unsupported content-type; send application/json');
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return new GatewayError('invalid_request', 'request body is empty');
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) return new GatewayError('invalid_request', message, { status });
  return toGatewayError(error);
}
