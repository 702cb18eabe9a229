/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: what
 * the instance needs to serve answers, each a check with its reason when it
 * fails: the database, and Redis when it is configured). A channel that
 * cannot be used does not make the instance unready (the others serve):
 * `/readyz` lists it under `brokenChannels`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';

/** One thing readiness depends on; `reason` says why it fails (no engine text: this route needs no credential). */
export interface ReadinessCheck {
  name: string;
  ok: boolean;
  reason?: string;
}

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    const checks = [await storageCheck(ctx, request), ...redisCheck(ctx)];
    const brokenChannels = ctx.channels.unusable().map(({ name, problem }) => ({ name, problem }));
    const failed = checks.find((check) => !check.ok);
    if (!failed) return { status: 'ready', storage: ctx.store.engine, checks, brokenChannels };
    reply.code(503);
    return { status: 'unavailable', storage: ctx.store.engine, error: failed.reason, checks, brokenChannels, requestId: request.id };
  });
}

async function storageCheck(ctx: AppContext, request: FastifyRequest): Promise<ReadinessCheck> {
  try {
    await ctx.store.ping();
    return { name: 'storage', ok: true };
  } catch (error) {
    // The engine's own text goes to the log only.
    request.log.error({ err: error, requestId: request.id }, 'storage is not answering');
    return { name: 'storage', ok: false, reason: 'the database is not answering' };
  }
}

function redisCheck(ctx: AppContext): ReadinessCheck[] {
  if (!ctx.redisUnavailable) return [];
  const reason = ctx.redisUnavailable();
  return [reason === undefined ? { name: 'redis', ok: true } : { name: 'redis', ok: false, reason }];
}
