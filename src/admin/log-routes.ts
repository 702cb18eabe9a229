/**
 * The admin API's reading of traffic: request logs (filtered pages and one
 * request's detail) and usage (totals per key and model, and series over
 * time from the per-minute and per-hour sums). Reads flush what this instance still holds
 * in memory first, so a request just answered is there.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { readPlanDescription } from '../core/translation-plan.js';
import type { AppContext } from '../http/context.js';
import type { RequestLogRow } from '../storage/request-log-types.js';
import { logListQuery, page, parseQuery, seriesQuery, usageQuery } from './queries.js';
import { marginOf, totalsOf } from './usage-margins.js';
import { reachFor, requireReach, teamFilter } from './reach.js';

export function registerLogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/logs', { config: { permission: 'logs.read' } }, async (request) => {
    const query = parseQuery(logListQuery(), request.query);
    const inReach = teamFilter(reachFor(request, 'logs.read'), query.teamId);
    await ctx.recorder.flush();
    const limit = query.limit ?? 100;
    const { cursor, limit: _limit, ...filters } = query;
    const rows = await ctx.store.logs.query({ ...filters, ...inReach, after: cursor, limit: limit + 1 });
    return page(rows, limit);
  });

  app.get<{ Params: { id: string } }>('/logs/:id', { config: { permission: 'logs.read' } }, async (request) => {
    const reach = reachFor(request, 'logs.read');
    await ctx.recorder.flush();
    const row = await ctx.store.logs.get(request.params.id);
    if (!row) throw new GatewayError('not_found', `no request log with id "${request.params.id}"`);
    requireReach(reach, row.teamId, `no request log with id "${request.params.id}"`);
    return logDetail(ctx, row);
  });

  app.get('/usage', { config: { permission: 'usage.read' } }, async (request) => {
    const query = parseQuery(usageQuery(), request.query);
    const inReach = teamFilter(reachFor(request, 'usage.read'), query.teamId);
    await ctx.recorder.flush();
    const report = await ctx.store.logs.usageReport({ ...query, ...inReach });
    const [names, teams, users] = await Promise.all([channelNames(ctx), ctx.store.teams.list(), ctx.store.users.list()]);
    const teamNames = new Map(teams.map((team) => [team.id, team.name]));
    const emails = new Map(users.map((user) => [user.id, user.email]));
    return {
      data: report.byKey,
      channels: report.byChannel.map((row) => ({
        channelId: row.channelId,
        channelName: row.channelId === null ? null : (names.get(row.channelId) ?? null),
        requests: row.requests,
        cost: row.cost,
        ...marginOf(row, row.channelId !== null),
      })),
      teams: report.byTeam.map(({ id, ...sums }) => ({ teamId: id, teamName: id === null ? null : (teamNames.get(id) ?? null), ...sums })),
      users: report.byUser.map(({ id, ...sums }) => ({ userId: id, email: id === null ? null : (emails.get(id) ?? null), ...sums })),
      totals: totalsOf(report.byChannel),
    };
  });

  app.get('/usage/series', { config: { permission: 'usage.read' } }, async (request) => {
    const query = parseQuery(seriesQuery(), request.query);
    const inReach = teamFilter(reachFor(request, 'usage.read'), query.teamId);
    await ctx.recorder.flush();
    const { totals, series } = await ctx.store.logs.series({ ...query, ...inReach });
    const labels = await groupLabels(
      ctx,
      query.by,
      series.map((entry) => entry.group),
    );
    return {
      since: query.since,
      until: query.until,
      step: query.step,
      by: query.by,
      totals,
      series: series.map((entry) => ({ group: entry.group, label: labels.get(entry.group) ?? entry.group, totals: entry.totals, points: entry.points })),
    };
  });
}

/** One request as the console shows it: who, where it went, each attempt, what translation did, and its timings. */
async function logDetail(ctx: AppContext, row: RequestLogRow) {
  const [key, channel, team, user] = await Promise.all([
    row.keyId ? ctx.store.keys.get(row.keyId) : undefined,
    row.channelId ? ctx.store.channels.get(row.channelId) : undefined,
    row.teamId ? ctx.store.teams.get(row.teamId) : undefined,
    row.userId ? ctx.store.users.get(row.userId) : undefined,
  ]);
  const startedAt = row.createdAt - row.latencyMs;
  const first = row.attempts[0];
  return {
    ...row,
    keyName: key?.name ?? null,
    teamName: team?.name ?? null,
    userEmail: user?.email ?? null,
    channelName: channel?.name ?? null,
    translationPlan: readPlanDescription(row.translation),
    timings: {
      totalMs: row.latencyMs,
      firstByteMs: row.firstByteMs,
      // Authentication, limits and the quota hold: the time before the first channel was tried.
      queueMs: first ? Math.max(0, first.at - startedAt) : null,
      upstreamMs: row.attempts.length > 0 ? row.attempts.reduce((sum, attempt) => sum + attempt.durationMs, 0) : null,
    },
  };
}

/** Channel names by id (a deleted channel has none). */
async function channelNames(ctx: AppContext): Promise<Map<string, string>> {
  return new Map((await ctx.store.channels.list()).map((channel) => [channel.id, channel.name]));
}

/** Names for the series of keys, channels, teams and users (ids are what the sums keep). */
async function groupLabels(ctx: AppContext, by: string, groups: string[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>([['', 'none']]);
  if (by === 'key') {
    for (const key of await ctx.store.keys.list()) if (groups.includes(key.id)) labels.set(key.id, key.name);
  } else if (by === 'channel') {
    for (const channel of await ctx.store.channels.list()) if (groups.includes(channel.id)) labels.set(channel.id, channel.name);
  } else if (by === 'team') {
    for (const team of await ctx.store.teams.list()) if (groups.includes(team.id)) labels.set(team.id, team.name);
  } else if (by === 'user') {
    for (const user of await ctx.store.users.list()) if (groups.includes(user.id)) labels.set(user.id, user.email);
  }
  return labels;
}
