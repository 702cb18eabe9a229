/**
 * Who an admin API request acts as, for the audit log: the bootstrap admin
 * key, or the person whose console session let the request in; admin tokens
 * are told apart here (and only here) once they exist.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../storage/audit-types.js';
import { admittedSession } from './sso/session-gate.js';

export function actorOf(request: FastifyRequest): AuditActor {
  const session = admittedSession(request);
  if (session) return { kind: 'user', id: session.user.id, name: session.user.email, requestId: request.id, clientIp: request.ip };
  return { kind: 'admin-key', id: null, name: 'admin key', requestId: request.id, clientIp: request.ip };
}
