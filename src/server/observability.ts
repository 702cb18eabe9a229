/**
 * The instance's own observability on the HTTP app: `GET /metrics` in the
 * Prometheus text format (protected by the admin key, like the admin API),
 * and the access-log line of every request (health probes and scrapes
 * excepted), written when its response finished or its client left. The
 * line names the path without its query (a Gemini client may put its key
 * there).
 */
import type { FastifyInstance } from 'fastify';
import { renderAdminError } from '../admin/errors.js';
import { isAdmin } from '../admin/routes.js';
import { useFamilyErrors } from '../http/family-errors.js';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import { pathOf } from './error-shapes.js';

const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);

export async function registerObservability(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Its own scope: a refused scrape is answered in the admin API's error shape.
  await app.register(async (scope) => {
    useFamilyErrors(scope, (error) => renderAdminError(error));
    scope.get('/metrics', async (request, reply) => {
      if (!isAdmin(request, ctx.adminKeyHash)) throw new GatewayError('authentication', 'admin key required');
      reply.type(ctx.metrics.contentType).send(await ctx.metrics.text());
    });
  });
  // Off, or below the logger's level: no hook at all, so the request path pays nothing.
  if (!ctx.accessNotes.enabled) return;
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    if (UNLOGGED.has(path)) return;
    const started = performance.now();
    reply.raw.once('close', () => {
      const note = ctx.accessNotes.take(request.id);
      ctx.logger.info(
        {
          method: request.method,
          path,
          status: reply.raw.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          requestId: request.id,
          ...note,
          ...(reply.raw.writableFinished ? {} : { clientLeft: true }),
        },
        'access',
      );
    });
  });
}
