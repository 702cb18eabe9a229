/**
 * The admin API's error shape: `{"error":{"type":<gateway error kind>,"message","param"?}}`;
 * `param` names the field or query parameter at fault, so a form can show the
 * message next to it.
 */
import type { GatewayError } from '../core/errors.js';
import type { RenderedError } from '../pipeline/types.js';

export function renderAdminError(error: GatewayError): RenderedError {
  const param = error.param ? { param: error.param } : {};
  return { status: error.status, body: { error: { type: error.kind, message: error.message, ...param } } };
}
