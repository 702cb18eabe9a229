/** The admin API's error shape: `{"error":{"type":<gateway error kind>,"message"}}`. */
import type { GatewayError } from '../core/errors.js';
import type { RenderedError } from '../pipeline/types.js';

export function renderAdminError(error: GatewayError): RenderedError {
  return { status: error.status, body: { error: { type: error.kind, message: error.message } } };
}
