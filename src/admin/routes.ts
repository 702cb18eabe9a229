/**
 * The admin HTTP API under /admin, for the bootstrap admin key or a person's
 * admin token (`Authorization: Bearer …` or `x-admin-key`); every route
 * declares the permission it needs (guard.ts, access.ts), and a team admin's
 * requests reach only their teams' records (reach.ts).
 *
 *   GET/POST          /admin/keys             list / create (the secret is shown once)
 *   GET/PATCH/DELETE  /admin/keys/:id         read / update / disable
 *   GET/POST          /admin/channels         list / create
 *   GET/PATCH/DELETE  /admin/channels/:id     read / update / delete (reads carry `health`, the breaker)
 *   POST              /admin/channels/:id/health/reset   closes the channel's breakers (on every instance, with Redis)
 *   POST              /admin/channels/:id/test           one small request through this channel only
 *   /admin/teams, /admin/teams/:id/members, /admin/users   teams, members and users (team-routes.ts)
 *   GET               /admin/logs, /admin/logs/:id       request logs (log-routes.ts)
 *   GET               /admin/usage, /admin/usage/series  usage totals and series
 *   GET               /admin/tasks, /admin/tasks/:id     image and video tasks (task-routes.ts)
 *   GET/PUT/DELETE    /admin/prices, /admin/prices/:model, quote, catalogue   (price-routes.ts)
 *   GET               /admin/settings, channel-types, openapi.json   (catalogue-routes.ts)
 *   GET               /admin/audit, /admin/audit/:id   the audit log of admin changes (audit-routes.ts)
 *   GET/POST/PATCH/DELETE /admin/budgets[/:id]   budgets on keys, users and teams (budget-routes.ts)
 *   GET /admin/me, /admin/me/tokens, /admin/users/:id/tokens   the caller and admin tokens (token-routes.ts)
 *   /admin/auth/...   console single sign-on and its sessions (sso/routes.ts; public routes)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { useFamilyErrors } from '../http/family-errors.js';
import { renderAdminError } from './errors.js';
import type { AppContext } from '../http/context.js';
import { AdminService, parseInput, publicChannel, publicKey } from './service.js';
import { actorOf } from './audit-actor.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerBudgetRoutes } from './budget-routes.js';
import { testChannel } from './channel-test.js';
import { channelTestBody } from './queries.js';
import { registerLogRoutes } from './log-routes.js';
import { registerTaskRoutes } from './task-routes.js';
import { registerCatalogueRoutes } from './catalogue-routes.js';
import { registerPriceRoutes } from './price-routes.js';
import { registerTeamRoutes } from './team-routes.js';
import { registerTokenRoutes } from './token-routes.js';
import { guardAdminRoutes } from './guard.js';
import { adminKeyResolver, adminTokenResolver, type PrincipalResolver, sessionResolver } from './principal.js';
import { reachFor, requireReach, requireTeamForWrite } from './reach.js';
import { registerSsoRoutes } from './sso/routes.js';
import { admitSession } from './sso/session-gate.js';
import { keyPriceWarnings } from './unpriced-models.js';
import type { Channel } from '../core/channel.js';
import type { ChannelRecord } from '../storage/types.js';

export { isAdmin } from './principal.js';

/** `warnings` only when there is something to say. */
const withWarnings = (warnings: string[]) => (warnings.length > 0 ? { warnings } : {});

const needs = (permission: 'keys.read' | 'keys.write' | 'channels.read' | 'channels.write') => ({ config: { permission } });

/**
 * Who may call the admin API, tried in order. The sign-in adds its console
 * sessions here: `sessionResolver(ctx.store, sessionOf)` (principal.ts).
 */
function principalResolvers(ctx: AppContext): PrincipalResolver[] {
  // A console session last: a request with a key or token is that caller, whatever cookie the browser adds.
  return [adminKeyResolver(ctx.adminKeyHash), adminTokenResolver(ctx.store), sessionResolver(ctx.store, (request) => admitSession(request, ctx.store))];
}

export function registerAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const admin = new AdminService(ctx.store, ctx.secrets);

  useFamilyErrors(app, (error) => renderAdminError(error));
  guardAdminRoutes(app, principalResolvers(ctx), ctx);

  // A channel's circuit breaker as this instance sees it (shared openings included).
  const withHealth = (record: ChannelRecord) => {
    const live = ctx.channels.all().find((channel) => channel.id === record.id);
    return {
      ...publicChannel(record),
      health: ctx.health.snapshot(live ?? ({ id: record.id, apiKeys: [] as string[] } as Channel)),
      problem: ctx.channels.problemOf(record.id) ?? null,
      ignoredSettings: [...ctx.channels.ignoredSettingsOf(record.id)],
    };
  };

  const keysChanged = () => {
    ctx.auth.invalidate();
    void ctx.changes.publish('keys');
  };
  // The change is written: a failed refresh here must not answer as if it were not (the timer refreshes again).
  const channelsChanged = async () => {
    await ctx.channels.refresh().catch((error) => ctx.logger.warn({ err: error }, 'channel refresh failed'));
    void ctx.changes.publish('channels');
  };

  // A key of a team out of the caller's reach (or of no team, for a team admin) is not found.
  const keyInReach = async (request: FastifyRequest<{ Params: { id: string } }>, permission: 'keys.read' | 'keys.write') => {
    const record = await admin.getKey(request.params.id);
    requireReach(reachFor(request, permission), record.teamId, `no key with id "${request.params.id}"`);
    return record;
  };

  // Reads show settled spend: flush what this instance still holds in memory first.
  app.get('/keys', needs('keys.read'), async (request) => {
    const reach = reachFor(request, 'keys.read');
    await ctx.recorder.flush();
    const keys = await ctx.store.keys.list();
    return { data: keys.filter((key) => reach.all || (key.teamId !== null && reach.teams.includes(key.teamId))).map(publicKey) };
  });
  app.post('/keys', needs('keys.write'), async (request, reply) => {
    requireTeamForWrite(reachFor(request, 'keys.write'), (request.body as { teamId?: unknown } | undefined)?.teamId, 'key');
    const { record, secret } = await admin.createKey(request.body ?? {}, actorOf(request));
    keysChanged();
    reply.code(201);
    return { ...publicKey(record), key: secret, ...withWarnings(keyPriceWarnings(ctx, record, record.name)) };
  });
  app.get<{ Params: { id: string } }>('/keys/:id', needs('keys.read'), async (request) => {
    await keyInReach(request, 'keys.read');
    await ctx.recorder.flush();
    return publicKey(await admin.getKey(request.params.id));
  });
  app.patch<{ Params: { id: string } }>('/keys/:id', needs('keys.write'), async (request) => {
    await keyInReach(request, 'keys.write');
    const patch = request.body as { teamId?: unknown } | undefined;
    if (patch?.teamId !== undefined) requireTeamForWrite(reachFor(request, 'keys.write'), patch.teamId, 'key');
    const record = await admin.updateKey(request.params.id, request.body ?? {}, actorOf(request));
    keysChanged();
    return { ...publicKey(record), ...withWarnings(keyPriceWarnings(ctx, record, record.name)) };
  });
  app.delete<{ Params: { id: string } }>('/keys/:id', needs('keys.write'), async (request) => {
    await keyInReach(request, 'keys.write');
    const record = await admin.updateKey(request.params.id, { status: 'disabled' }, actorOf(request), 'key.disable');
    keysChanged();
    return publicKey(record);
  });

  app.get('/channels', needs('channels.read'), async () => ({ data: (await ctx.store.channels.list()).map(withHealth) }));
  app.post('/channels', needs('channels.write'), async (request, reply) => {
    const record = await admin.createChannel(request.body ?? {}, actorOf(request));
    await channelsChanged();
    reply.code(201);
    return withHealth(record);
  });
  app.get<{ Params: { id: string } }>('/channels/:id', needs('channels.read'), async (request) => withHealth(await admin.getChannel(request.params.id)));
  app.patch<{ Params: { id: string } }>('/channels/:id', needs('channels.write'), async (request) => {
    const record = await admin.updateChannel(request.params.id, request.body ?? {}, actorOf(request));
    await channelsChanged();
    return withHealth(record);
  });
  app.delete<{ Params: { id: string } }>('/channels/:id', needs('channels.write'), async (request) => {
    const deleted = await admin.deleteChannel(request.params.id, actorOf(request));
    await channelsChanged();
    return deleted;
  });

  app.post<{ Params: { id: string } }>('/channels/:id/health/reset', needs('channels.write'), async (request) => {
    const record = await admin.getChannel(request.params.id);
    ctx.health.reset(record.id);
    // Nothing stored changes: the entry says who closed the breakers, the channel as it was then on both sides.
    await ctx.store.audit.record(actorOf(request), 'channel.health-reset', 'channel', record, record);
    return withHealth(record);
  });

  app.post<{ Params: { id: string } }>('/channels/:id/test', needs('channels.write'), async (request) => {
    const { model } = parseInput(channelTestBody(), request.body ?? {});
    return testChannel(ctx, await admin.getChannel(request.params.id), model);
  });

  registerTeamRoutes(app, ctx, keysChanged);
  registerLogRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerCatalogueRoutes(app, ctx);
  registerPriceRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerBudgetRoutes(app, ctx);
  registerTokenRoutes(app, ctx);
  registerSsoRoutes(app, ctx);
}
