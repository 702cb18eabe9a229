/**
 * The audit log of administrative changes, read through the admin API:
 *
 *   GET   /admin/audit       entries newest first, filtered, a page at a time
 *   GET   /admin/audit/:id   one entry
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import { auditListQuery } from './audit-schemas.js';
import { encodeCursor, parseQuery } from './queries.js';

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/audit', { config: { permission: 'audit.read' } }, async (request) => {
    const { cursor, limit = 100, ...filters } = parseQuery(auditListQuery(), request.query);
    const rows = await ctx.store.audit.query({ ...filters, after: cursor, limit: limit + 1 });
    const hasMore = rows.length > limit;
    const data = hasMore ? rows.slice(0, limit) : rows;
    const last = data[data.length - 1];
    return { data, hasMore, nextCursor: hasMore ? encodeCursor({ createdAt: last.at, id: last.id }) : null };
  });

  app.get<{ Params: { id: string } }>('/audit/:id', { config: { permission: 'audit.read' } }, async (request) => {
    const entry = await ctx.store.audit.get(request.params.id);
    if (!entry) throw new GatewayError('not_found', `no audit entry with id "${request.params.id}"`);
    return entry;
  });
}
