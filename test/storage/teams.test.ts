/**
 * Teams, users and memberships on both engines: names and emails unique
 * (emails case-folded), keys held by a team or a user, deletes and removals
 * refused while active keys would lose their owner, and request log rows and
 * usage sums rolled up by team and user.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { newId } from '../../src/storage/ids.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from './engines.js';

const HOUR = 3_600_000;
const base = Math.floor(Date.UTC(2026, 0, 5, 10) / HOUR) * HOUR;

function logRow(fields: Partial<RequestLogRow>): RequestLogRow {
  return {
    id: newId('log'),
    requestId: newId('req'),
    keyId: null,
    family: 'messages',
    model: 'm-1',
    upstreamModel: null,
    channelId: 'ch_1',
    triedChannels: ['one'],
    httpStatus: 200,
    errorKind: null,
    errorMessage: null,
    stream: false,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cost: 1,
    upstreamCost: null,
    latencyMs: 100,
    firstByteMs: null,
    clientIp: null,
    translation: null,
    attempts: [],
    createdAt: base + 60_000,
    ...fields,
  };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe.each(engines)('teams and users on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('creates, reads, renames teams; names are unique', async () => {
    const team = await store.teams.create({ name: 'platform', description: 'the platform team' });
    expect(team.id).toMatch(/^team_/);
    expect(await store.teams.get(team.id)).toEqual(team);
    expect(await store.teams.getByName('platform')).toEqual(team);
    expect((await refusal(store.teams.create({ name: 'platform' }))).status).toBe(409);
    const renamed = await store.teams.update(team.id, { name: 'platform-eng', description: null });
    expect(renamed).toMatchObject({ name: 'platform-eng', description: null });
    expect(await store.teams.update('team_missing', { name: 'x' })).toBeUndefined();
    expect((await store.teams.list()).map((t) => t.name)).toContain('platform-eng');
  });

  it.skipIf(skip)('keeps emails case-folded and unique, external ids unique', async () => {
    const user = await store.users.create({ email: 'Ada@Example.COM', name: 'Ada', externalId: 'sub-1' });
    expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada', status: 'active', externalId: 'sub-1' });
    expect(await store.users.getByEmail('ADA@example.com')).toEqual(user);
    expect((await refusal(store.users.create({ email: 'ada@EXAMPLE.com' }))).status).toBe(409);
    expect((await refusal(store.users.create({ email: 'other@example.com', externalId: 'sub-1' }))).status).toBe(409);
    // Many users may have no external id yet.
    await store.users.create({ email: 'b@example.com' });
    await store.users.create({ email: 'c@example.com' });
    expect(await store.users.update(user.id, { status: 'disabled' })).toMatchObject({ status: 'disabled' });
  });

  it.skipIf(skip)('adds members, changes their role, lists both ways', async () => {
    const team = await store.teams.create({ name: 'research' });
    const user = await store.users.create({ email: 'grace@example.com' });
    expect(await store.teams.putMember(team.id, user.id, 'member')).toMatchObject({ teamId: team.id, userId: user.id, role: 'member' });
    expect(await store.teams.putMember(team.id, user.id, 'admin')).toMatchObject({ role: 'admin' });
    expect(await store.teams.members(team.id)).toEqual([expect.objectContaining({ userId: user.id, role: 'admin' })]);
    expect(await store.teams.membershipsOf(user.id)).toEqual([expect.objectContaining({ teamId: team.id })]);
    expect(await store.teams.member(team.id, user.id)).toMatchObject({ role: 'admin' });
  });

  it.skipIf(skip)('refuses to orphan active keys; detaches disabled ones', async () => {
    const team = await store.teams.create({ name: 'ops' });
    const user = await store.users.create({ email: 'linus@example.com' });
    await store.teams.putMember(team.id, user.id, 'member');
    const teamKey = await store.keys.create({ name: 'ops-ci', keyHash: 'h-ops-ci', keyPrefix: 'sk-ops', teamId: team.id });
    const userKey = await store.keys.create({ name: 'ops-linus', keyHash: 'h-ops-l', keyPrefix: 'sk-opl', teamId: team.id, userId: user.id });
    expect(userKey).toMatchObject({ teamId: team.id, userId: user.id });
    await store.keys.addUsed(
      new Map([
        [teamKey.id, 2],
        [userKey.id, 3],
      ]),
    );
    expect(await store.keys.holdings({ teamId: team.id })).toEqual({ keys: 2, activeKeys: 2, used: 5 });
    expect(await store.keys.holdings({ userId: user.id })).toEqual({ keys: 1, activeKeys: 1, used: 3 });

    const removal = await refusal(store.teams.removeMember(team.id, user.id));
    expect(removal.status).toBe(409);
    expect(removal.message).toContain('"ops-linus"');
    expect((await refusal(store.users.delete(user.id))).status).toBe(409);
    expect((await refusal(store.teams.delete(team.id))).status).toBe(409);

    await store.keys.update(userKey.id, { status: 'disabled' });
    expect(await store.teams.removeMember(team.id, user.id)).toBe(true);
    expect(await store.keys.get(userKey.id)).toMatchObject({ teamId: team.id, userId: null });
    expect(await store.teams.removeMember(team.id, user.id)).toBe(false);

    await store.keys.update(teamKey.id, { status: 'disabled' });
    expect(await store.teams.delete(team.id)).toBe(true);
    expect(await store.teams.get(team.id)).toBeUndefined();
    expect(await store.keys.get(teamKey.id)).toMatchObject({ teamId: null, userId: null });
    expect(await store.users.delete(user.id)).toBe(true);
    expect(await store.users.get(user.id)).toBeUndefined();
    expect(await store.teams.delete(team.id)).toBe(false);
  });

  it.skipIf(skip)('deleting a team drops its memberships', async () => {
    const team = await store.teams.create({ name: 'temp' });
    const user = await store.users.create({ email: 'temp@example.com' });
    await store.teams.putMember(team.id, user.id, 'member');
    expect(await store.teams.delete(team.id)).toBe(true);
    expect(await store.teams.membershipsOf(user.id)).toEqual([]);
  });

  it.skipIf(skip)('rolls log rows and usage sums up by team and user', async () => {
    await store.logs.insertMany([
      logRow({ keyId: 'key_t1', teamId: 'team_a', userId: 'user_a', cost: 1 }),
      logRow({ keyId: 'key_t1', teamId: 'team_a', userId: 'user_a', cost: 2 }),
      logRow({ keyId: 'key_t2', teamId: 'team_a', userId: null, cost: 4 }),
      logRow({ keyId: 'key_t3', teamId: 'team_b', userId: 'user_b', cost: 8 }),
      logRow({ keyId: 'key_t4', cost: 16 }),
    ]);
    const rows = await store.logs.query({ teamId: 'team_a' });
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.teamId === 'team_a')).toBe(true);
    expect((await store.logs.query({ userId: 'user_b' })).map((row) => row.keyId)).toEqual(['key_t3']);

    const since = base;
    const until = base + HOUR;
    const byTeam = await store.logs.series({ since, until, step: HOUR, by: 'team', top: 10 });
    expect(Object.fromEntries(byTeam.series.map((s) => [s.group, s.totals.cost]))).toEqual({ team_a: 7, team_b: 8, '': 16 });
    const byUser = await store.logs.series({ since, until, step: 60_000, by: 'user', top: 10, teamId: 'team_a' });
    expect(Object.fromEntries(byUser.series.map((s) => [s.group, s.totals.cost]))).toEqual({ user_a: 3, '': 4 });

    // Whole hours from the hourly sums, partial ones from the log: both filter alike.
    const teamUsage = await store.logs.usage({ teamId: 'team_a', since, until });
    expect(teamUsage.reduce((sum, row) => sum + row.cost, 0)).toBe(7);
    const partial = await store.logs.usage({ userId: 'user_a', since: base + 30_000, until: base + 120_000 });
    expect(partial.reduce((sum, row) => sum + row.cost, 0)).toBe(3);
  });
});
