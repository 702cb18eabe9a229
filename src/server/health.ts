/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the
 * database answers). A channel that cannot be used does not make the instance
 * unready (the others serve): `/readyz` lists it under `brokenChannels`.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await ctx.store.ping();
      const brokenChannels = ctx.channels.unusable().map(({ name, problem }) => ({ name, problem }));
      return { status: 'ready', storage: ctx.store.engine, brokenChannels };
    } catch (error) {
      // The engine's own text goes to the log only: this route needs no credential.
      request.log.error({ err: error, requestId: request.id }, 'storage is not answering');
      reply.code(503);
      return { status: 'unavailable', storage: ctx.store.engine, error: 'the database is not answering', requestId: request.id };
    }
  });
}
