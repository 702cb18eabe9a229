/**
 * The admin API's door for console sessions: a request that carries no admin
 * key may come in with a valid session cookie. A cookie rides along with any
 * request the browser makes, a forged form's included, so an unsafe method
 * let in by the cookie must also carry `x-switchyard-csrf` (a custom header,
 * which another site's page cannot set without the gateway's CORS consent,
 * never given); without it the request is refused 403.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { Store } from '../../storage/types.js';
import { type SessionPrincipal, sessionOf } from './sessions.js';

export const CSRF_HEADER = 'x-switchyard-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a cookie-authenticated unsafe request without the CSRF header. */
export function checkCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers[CSRF_HEADER] === undefined) throw new GatewayError('permission', `a request signed in by the session cookie must send the ${CSRF_HEADER} header`);
}

/** The session the request comes in with, checked for CSRF; null when it has none. */
export async function admitSession(request: FastifyRequest, store: Store): Promise<SessionPrincipal | null> {
  const principal = await sessionOf(request, store);
  if (!principal) return null;
  checkCsrf(request);
  return principal;
}
