/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await ctx.store.ping();
      return { status: 'ready', storage: ctx.store.engine };
    } catch (error) {
      reply.code(503);
      return { status: 'unavailable', storage: ctx.store.engine, error: (error as Error).message };
    }
  });
}
