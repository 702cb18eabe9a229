/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await ctx.store.ping();
      return { status: 'ready', storage: ctx.store.engine };
    } catch (error) {
      // The engine's own text goes to the log only: this route needs no credential.
      request.log.error({ err: error, requestId: request.id }, 'storage is not answering');
      reply.code(503);
      return { status: 'unavailable', storage: ctx.store.engine, error: 'the database is not answering', requestId: request.id };
    }
  });
}
