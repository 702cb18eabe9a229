/**
 * The admin HTTP API under /admin, authorised by the admin key
 * (`Authorization: Bearer <admin key>` or `x-admin-key`).
 *
 *   GET/POST          /admin/keys             list / create (the secret is shown once)
 *   GET/PATCH/DELETE  /admin/keys/:id         read / update / disable
 *   GET/POST          /admin/channels         list / create
 *   GET/PATCH/DELETE  /admin/channels/:id     read / update / delete (reads carry `health`, the breaker)
 *   POST              /admin/channels/:id/health/reset   closes the channel's breakers (on every instance, with Redis)
 *   GET               /admin/logs             request logs, newest first (?keyId&model&before&limit)
 *   GET               /admin/usage            usage and cost per key and model (?keyId&since&until)
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { useFamilyErrors } from '../http/family-errors.js';
import { renderAdminError } from './errors.js';
import type { AppContext } from '../http/context.js';
import { bearerToken, headerValue } from '../http/credentials.js';
import { AdminService, publicChannel, publicKey } from './service.js';
import type { Channel } from '../core/channel.js';
import type { ChannelRecord } from '../storage/types.js';

export function isAdmin(request: FastifyRequest, adminKeyHash: string): boolean {
  const presented = headerValue(request, 'x-admin-key') ?? bearerToken(request);
  if (!presented) return false;
  const hash = createHash('sha256').update(presented).digest();
  return timingSafeEqual(hash, Buffer.from(adminKeyHash, 'hex'));
}

/** Each filter takes one value: `?keyId=a&keyId=b` is a 400, not an array handed to the database. */
function singleValues(query: Record<string, unknown>): Record<string, string | undefined> {
  for (const [name, value] of Object.entries(query)) {
    if (typeof value !== 'string') throw new GatewayError('invalid_request', `${name}: give this query parameter once`, { param: name });
  }
  return query as Record<string, string | undefined>;
}

function numberParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new GatewayError('invalid_request', `${name} must be a number`, { param: name });
  return parsed;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = new AdminService(ctx.store, ctx.secrets);

  useFamilyErrors(app, (error) => renderAdminError(error));

  app.addHook('onRequest', async (request) => {
    if (!isAdmin(request, ctx.adminKeyHash)) throw new GatewayError('authentication', 'admin key required');
  });

  // A channel's circuit breaker as this instance sees it (shared openings included).
  const withHealth = (record: ChannelRecord) => {
    const live = ctx.channels.all().find((channel) => channel.id === record.id);
    return { ...publicChannel(record), health: ctx.health.snapshot(live ?? { id: record.id, apiKeys: [] as string[] } as Channel) };
  };

  const keysChanged = () => {
    ctx.auth.invalidate();
    void ctx.changes.publish('keys');
  };
  const channelsChanged = async () => {
    await ctx.channels.refresh();
    void ctx.changes.publish('channels');
  };

  // Reads show settled spend: flush what this instance still holds in memory first.
  app.get('/keys', async () => {
    await ctx.recorder.flush();
    return { data: (await ctx.store.keys.list()).map(publicKey) };
  });
  app.post('/keys', async (request, reply) => {
    const { record, secret } = await admin.createKey(request.body ?? {});
    keysChanged();
    reply.code(201);
    return { ...publicKey(record), key: secret };
  });
  app.get<{ Params: { id: string } }>('/keys/:id', async (request) => {
    await ctx.recorder.flush();
    return publicKey(await admin.getKey(request.params.id));
  });
  app.patch<{ Params: { id: string } }>('/keys/:id', async (request) => {
    const record = await admin.updateKey(request.params.id, request.body ?? {});
    keysChanged();
    return publicKey(record);
  });
  app.delete<{ Params: { id: string } }>('/keys/:id', async (request) => {
    const record = await admin.updateKey(request.params.id, { status: 'disabled' });
    keysChanged();
    return publicKey(record);
  });

  app.get('/channels', async () => ({ data: (await ctx.store.channels.list()).map(withHealth) }));
  app.post('/channels', async (request, reply) => {
    const record = await admin.createChannel(request.body ?? {});
    await channelsChanged();
    reply.code(201);
    return withHealth(record);
  });
  app.get<{ Params: { id: string } }>('/channels/:id', async (request) =>
    withHealth(await admin.getChannel(request.params.id)),
  );
  app.patch<{ Params: { id: string } }>('/channels/:id', async (request) => {
    const record = await admin.updateChannel(request.params.id, request.body ?? {});
    await channelsChanged();
    return withHealth(record);
  });
  app.delete<{ Params: { id: string } }>('/channels/:id', async (request) => {
    if (!(await ctx.store.channels.delete(request.params.id)))
      throw new GatewayError('not_found', `no channel with id "${request.params.id}"`);
    await channelsChanged();
    return { id: request.params.id, deleted: true };
  });

  app.post<{ Params: { id: string } }>('/channels/:id/health/reset', async (request) => {
    const record = await admin.getChannel(request.params.id);
    ctx.health.reset(record.id);
    return withHealth(record);
  });

  app.get('/logs', async (request) => {
    const query = singleValues(request.query as Record<string, unknown>);
    await ctx.recorder.flush();
    const limit = Math.min(numberParam(query.limit, 'limit') ?? 100, 1000);
    const rows = await ctx.store.logs.query({
      keyId: query.keyId,
      model: query.model,
      before: numberParam(query.before, 'before'),
      since: numberParam(query.since, 'since'),
      limit,
    });
    return { data: rows, hasMore: rows.length === limit };
  });

  app.get('/usage', async (request) => {
    const query = singleValues(request.query as Record<string, unknown>);
    await ctx.recorder.flush();
    return {
      data: await ctx.store.logs.usage({
        keyId: query.keyId,
        since: numberParam(query.since, 'since'),
        until: numberParam(query.until, 'until'),
      }),
    };
  });
}
