/**
 * Teams and users through the admin API, on SQLite and PostgreSQL: a team and
 * a user in it, keys for each, requests through the gateway whose log rows and
 * usage carry the team and user, the log's and usage's team and user filters
 * and groupings, spend in the team and user reads, and the refusals (a key
 * for a user outside its team, deleting what still holds active keys).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

const config = {
  channels: [{ name: 'sim', type: 'simulator', models: ['team-model', 'ig_*'], settings: { taskSeconds: 0.1, imageSize: 64 } }],
  prices: { 'team-model': { input: 1000, output: 2000 }, 'ig_*': { perCall: 0.25 } },
};

describe.each(ENGINES)('teams and users on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  const ids: Record<string, string> = {};
  const secrets: Record<string, string> = {};

  const ask = (secret: string) =>
    fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'team-model', max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }] }),
    }).then(async (response) => {
      await response.text();
      return response.status;
    });

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config, env: { SWITCHYARD_SIMULATOR: 'off' } });
    const team = await gw.admin('POST', '/teams', { name: 'research', description: 'evaluations' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    ids.team = team.body.id;
    ids.other = (await gw.admin('POST', '/teams', { name: 'support' })).body.id;
    const user = await gw.admin('POST', '/users', { email: 'Ada@Example.com', name: 'Ada' });
    expect(user.status).toBe(201);
    ids.user = user.body.id;
    expect((await gw.admin('PUT', `/teams/${ids.team}/members`, { userId: ids.user, role: 'admin' })).status).toBe(200);
    const userKey = await gw.admin('POST', '/keys', { name: 'ada', teamId: ids.team, userId: ids.user });
    expect(userKey.status, JSON.stringify(userKey.body)).toBe(201);
    [ids.userKey, secrets.user] = [userKey.body.id, userKey.body.key];
    const teamKey = await gw.admin('POST', '/keys', { name: 'research-ci', teamId: ids.team });
    [ids.teamKey, secrets.team] = [teamKey.body.id, teamKey.body.key];
    const loneKey = await gw.admin('POST', '/keys', { name: 'lone' });
    secrets.lone = loneKey.body.key;
    expect(await ask(secrets.user)).toBe(200);
    expect(await ask(secrets.user)).toBe(200);
    expect(await ask(secrets.team)).toBe(200);
    expect(await ask(secrets.lone)).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('shows a key’s team and user, and refuses an owner that does not fit', async () => {
    expect((await gw.admin('GET', `/keys/${ids.userKey}`)).body).toMatchObject({ teamId: ids.team, userId: ids.user });
    const outside = await gw.admin('POST', '/keys', { name: 'ada-support', teamId: ids.other, userId: ids.user });
    expect(outside.status).toBe(400);
    expect(outside.body.error).toMatchObject({ type: 'invalid_request', param: 'userId' });
    const noTeam = await gw.admin('POST', '/keys', { name: 'ada-alone', userId: ids.user });
    expect(noTeam.body.error).toMatchObject({ param: 'teamId' });
    const unknown = await gw.admin('PATCH', `/keys/${ids.teamKey}`, { teamId: 'team_nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('no team');
    // Moving a user's key to a team the user is not in is refused as well.
    expect((await gw.admin('PATCH', `/keys/${ids.userKey}`, { teamId: ids.other })).body.error).toMatchObject({ param: 'userId' });
  });

  it('writes the team and user into each request’s log row, and filters by them', async () => {
    const byTeam = await gw.admin('GET', `/logs?teamId=${ids.team}`);
    expect(byTeam.body.data).toHaveLength(3);
    expect(byTeam.body.data.every((row: { teamId: string }) => row.teamId === ids.team)).toBe(true);
    const byUser = await gw.admin('GET', `/logs?userId=${ids.user}`);
    expect(byUser.body.data.map((row: { keyId: string; userId: string }) => [row.keyId, row.userId])).toEqual([
      [ids.userKey, ids.user],
      [ids.userKey, ids.user],
    ]);
    const detail = await gw.admin('GET', `/logs/${byUser.body.data[0].id}`);
    expect(detail.body).toMatchObject({ teamName: 'research', userEmail: 'ada@example.com' });
  });

  it('rolls usage up by team and user, in totals and in series', async () => {
    const usage = (await gw.admin('GET', '/usage')).body;
    const research = usage.teams.find((row: { teamId: string | null }) => row.teamId === ids.team);
    expect(research).toMatchObject({ teamName: 'research', requests: 3 });
    expect(usage.teams.find((row: { teamId: string | null }) => row.teamId === null)).toMatchObject({ requests: 1 });
    expect(usage.users.find((row: { userId: string | null }) => row.userId === ids.user)).toMatchObject({ email: 'ada@example.com', requests: 2 });
    const teamOnly = (await gw.admin('GET', `/usage?teamId=${ids.team}`)).body;
    expect(teamOnly.data.map((row: { keyId: string }) => row.keyId).sort()).toEqual([ids.userKey, ids.teamKey].sort());

    const series = (await gw.admin('GET', '/usage/series?by=team')).body;
    const labels = Object.fromEntries(series.series.map((entry: { group: string; label: string; totals: { requests: number } }) => [entry.label, entry.totals.requests]));
    expect(labels).toEqual({ research: 3, none: 1 });
    const users = (await gw.admin('GET', `/usage/series?by=user&teamId=${ids.team}`)).body;
    expect(Object.fromEntries(users.series.map((entry: { label: string; totals: { requests: number } }) => [entry.label, entry.totals.requests]))).toEqual({ 'ada@example.com': 2, none: 1 });
  });

  it('shows spend in the team and user reads', async () => {
    const team = (await gw.admin('GET', `/teams/${ids.team}`)).body;
    const keys = (await gw.admin('GET', '/keys')).body.data as Array<{ id: string; used: number }>;
    const used = (id: string) => keys.find((key) => key.id === id)!.used;
    expect(used(ids.userKey)).toBeGreaterThan(0);
    expect(team).toMatchObject({ name: 'research', members: 1, keys: 2, activeKeys: 2 });
    expect(team.spend).toBeCloseTo(used(ids.userKey) + used(ids.teamKey), 10);
    const user = (await gw.admin('GET', `/users/${ids.user}`)).body;
    expect(user).toMatchObject({ email: 'ada@example.com', keys: 1, teams: [{ teamId: ids.team, name: 'research', role: 'admin' }] });
    expect(user.spend).toBeCloseTo(used(ids.userKey), 10);
    expect((await gw.admin('GET', '/teams')).body.data.map((row: { name: string }) => row.name)).toEqual(['research', 'support']);
    expect((await gw.admin('GET', `/teams/${ids.team}/members`)).body.data).toEqual([expect.objectContaining({ userId: ids.user, role: 'admin', email: 'ada@example.com' })]);
  });

  it('counts spend per team in the metrics', async () => {
    const text = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${gw.adminKey}` } })).text();
    expect(text).toMatch(new RegExp(`switchyard_team_spend_usd_total\\{family="messages",gen_ai_request_model="team-model",team="${ids.team}"\\} [0-9.e-]+`));
    expect(text).not.toContain('team=""');
  });

  it('rolls a task’s charge up to its key’s team and user', async () => {
    const submitted = await fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.user}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse at dusk' }),
    }).then((response) => response.json() as Promise<{ result: string }>);
    expect(submitted.result).toBeTruthy();
    const rows = (await gw.admin('GET', `/logs?userId=${ids.user}&family=images`)).body.data;
    expect(rows).toEqual([expect.objectContaining({ teamId: ids.team, userId: ids.user, cost: 0.25 })]);
  });

  it('a disabled user’s keys stop serving, on this instance at once; enabled again, they serve', async () => {
    expect((await gw.admin('PATCH', `/users/${ids.user}`, { status: 'disabled' })).status).toBe(200);
    const refused = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': secrets.user, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'team-model', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('API key is disabled: its user is disabled');
    // The team's own key is nobody's: it still serves.
    expect(await ask(secrets.team)).toBe(200);
    expect((await gw.admin('PATCH', `/users/${ids.user}`, { status: 'active' })).status).toBe(200);
    expect(await ask(secrets.user)).toBe(200);
  });

  it('refuses deletes that would orphan active keys, in the admin error shape', async () => {
    const removal = await gw.admin('DELETE', `/teams/${ids.team}/members/${ids.user}`);
    expect(removal.status).toBe(409);
    expect(removal.body.error).toMatchObject({ type: 'invalid_request', message: expect.stringContaining('"ada"') });
    expect((await gw.admin('DELETE', `/users/${ids.user}`)).status).toBe(409);
    expect((await gw.admin('DELETE', `/teams/${ids.team}`)).status).toBe(409);
    expect((await gw.admin('DELETE', '/teams/team_nope')).status).toBe(404);

    // Disabled keys do not hold a team: they are detached, and their log rows keep the team.
    expect((await gw.admin('DELETE', `/keys/${ids.userKey}`)).status).toBe(200);
    expect((await gw.admin('DELETE', `/teams/${ids.team}/members/${ids.user}`)).status).toBe(200);
    expect((await gw.admin('GET', `/keys/${ids.userKey}`)).body).toMatchObject({ teamId: ids.team, userId: null });
    expect((await gw.admin('DELETE', `/keys/${ids.teamKey}`)).status).toBe(200);
    expect((await gw.admin('DELETE', `/teams/${ids.team}`)).body).toEqual({ id: ids.team, deleted: true });
    expect((await gw.admin('GET', `/keys/${ids.teamKey}`)).body).toMatchObject({ teamId: null });
    expect((await gw.admin('GET', `/logs?teamId=${ids.team}`)).body.data.length).toBeGreaterThanOrEqual(3);
    expect((await gw.admin('DELETE', `/users/${ids.user}`)).status).toBe(200);
  });

  it('refuses bad input naming the field', async () => {
    const email = await gw.admin('POST', '/users', { email: 'not an address' });
    expect(email.body.error).toMatchObject({ type: 'invalid_request', param: 'email' });
    expect((await gw.admin('POST', '/users', { email: 'ADA@example.com' })).status).toBe(201);
    expect((await gw.admin('POST', '/users', { email: 'ada@EXAMPLE.com' })).status).toBe(409);
    expect((await gw.admin('POST', '/teams', { name: 'support' })).status).toBe(409);
    expect((await gw.admin('PUT', `/teams/${ids.other}/members`, { userId: ids.user, role: 'owner' })).body.error).toMatchObject({ param: 'role' });
    expect((await gw.admin('GET', '/usage/series?by=group')).status).toBe(400);
  });
});
