/**
 * The instance's own observability on the HTTP app: `GET /metrics` in the
 * Prometheus text format (protected by the admin key, like the admin API),
 * and the access-log line of every request (health probes and scrapes
 * excepted), written when its response finished or its client left, and
 * its trace span when traces are on (`src/observe/tracing.ts`), ended at the
 * same moment. Both name the path without its query (a Gemini client may put
 * its key there).
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
      if (!ctx.metrics.enabled) throw new GatewayError('not_found', 'metrics are turned off on this gateway (SWITCHYARD_METRICS=off)');
      const text = await ctx.metrics.text();
      reply.type(await ctx.metrics.contentType()).send(text);
    });
  });
  // Neither an access log (off, or below the logger's level) nor traces: no hook at all, so the request path pays nothing.
  if (!ctx.accessNotes.enabled) return;
  const { logged } = ctx.accessNotes;
  const tracer = ctx.tracer;
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    if (UNLOGGED.has(path)) return;
    const started = performance.now();
    const span = tracer?.start({ method: request.method, path, route: request.routeOptions.url, requestId: request.id, headers: request.headers });
    reply.raw.once('close', () => {
      const note = ctx.accessNotes.take(request.id);
      const status = reply.raw.statusCode;
      const clientLeft = !reply.raw.writableFinished;
      if (logged) {
        ctx.logger.info(
          {
            method: request.method,
            path,
            status,
            durationMs: Math.round((performance.now() - started) * 10) / 10,
            requestId: request.id,
            clientIp: request.ip,
            ...(note && { key: note.key, model: note.model, channel: note.channel, attempts: note.attempts }),
            ...(clientLeft ? { clientLeft: true } : {}),
          },
          'access',
        );
      }
      span?.end({ status, note, channel: note?.channel ? channelNamed(ctx, note.channel) : undefined, clientLeft });
    });
  });
}

/** The serving channel's name and type for the span (the note has its id). */
function channelNamed(ctx: AppContext, id: string): { name: string; type: string } | undefined {
  const channel = ctx.channels.all().find((candidate) => candidate.id === id);
  return channel && { name: channel.name, type: channel.type };
}
