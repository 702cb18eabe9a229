/**
 * Who an admin API request acts as, for the audit log: the admin key, a
 * person's admin token (its id, named by the person's email) or a console
 * session (the person). Told apart here and only here, from the principal
 * the admin gate resolved (guard.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../storage/audit-types.js';

export function actorOf(request: FastifyRequest): AuditActor {
  const where = { requestId: request.id, clientIp: request.ip };
  const principal = request.principal;
  if (principal?.kind === 'token' && principal.user) return { kind: 'token', id: principal.credentialId, name: principal.user.email, ...where };
  if (principal?.kind === 'session' && principal.user) return { kind: 'user', id: principal.user.id, name: principal.user.email, ...where };
  return { kind: 'admin-key', id: null, name: 'admin key', ...where };
}
