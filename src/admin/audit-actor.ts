/**
 * Who an admin API request acts as, for the audit log. Today every caller
 * holds the bootstrap admin key; admin users and their tokens are told
 * apart here (and only here) once they exist.
 */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from '../storage/audit-types.js';

export function actorOf(request: FastifyRequest): AuditActor {
  return { kind: 'admin-key', id: null, name: 'admin key', requestId: request.id, clientIp: request.ip };
}
