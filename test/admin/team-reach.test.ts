/**
 * A team admin's reach, on SQLite and PostgreSQL: they see and change their
 * own team's keys, logs, usage, tasks and budgets, and nothing of another
 * team's (a record out of reach is not found; a filter naming another team
 * is a 403), while a viewer reads everyone's traffic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import { caller, createPeople, type Call, type People } from './people.js';

const config = {
  channels: [{ name: 'sim', type: 'simulator', models: ['reach-model', 'ig_*'], settings: { taskSeconds: 0.1, imageSize: 64 } }],
  prices: { 'reach-model': { input: 1000, output: 2000 }, 'ig_*': { perCall: 0.25 } },
};

describe.each(ENGINES)('a team admin’s reach on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;
  let people: People;
  let call: Call;
  const keys: Record<'a' | 'b', { id: string; secret: string }> = {} as never;
  const tasks: Record<'a' | 'b', string> = {} as never;
  const budgets: Record<string, string> = {};

  const ask = (secret: string) =>
    fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'reach-model', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] }),
    }).then((response) => response.status);
  const imagine = (secret: string) =>
    fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a lighthouse' }),
    }).then(async (response) => ((await response.json()) as { result: string }).result);

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config, env: { SWITCHYARD_SIMULATOR: 'off' } });
    people = await createPeople(gw);
    call = caller(gw, () => people);
    for (const team of ['a', 'b'] as const) {
      const key = await gw.admin('POST', '/keys', { name: `key ${team}`, teamId: people.teams[team] });
      keys[team] = { id: key.body.id, secret: key.body.key };
      expect(await ask(key.body.key)).toBe(200);
      tasks[team] = await imagine(key.body.key);
    }
    const budget = async (scopeKind: string, scopeId: string) => (await gw.admin('POST', '/budgets', { scopeKind, scopeId, amountUsd: 5, period: 'daily', timeZone: 'UTC' })).body.id;
    budgets.teamA = await budget('team', people.teams.a);
    budgets.teamB = await budget('team', people.teams.b);
    budgets.keyB = await budget('key', keys.b.id);
    budgets.user = await budget('user', people.users.nobody);
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  it('sees only their team’s keys and cannot touch another team’s', async () => {
    expect((await call('teamAdmin', 'GET', '/keys')).body.data.map((key: { id: string }) => key.id)).toEqual([keys.a.id]);
    expect((await call('teamAdmin', 'GET', `/keys/${keys.a.id}`)).status).toBe(200);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'taken over' }], ['DELETE']] as const) {
      expect((await call('teamAdmin', method, `/keys/${keys.b.id}`, body)).status, method).toBe(404);
    }
    const elsewhere = await call('teamAdmin', 'POST', '/keys', { name: 'in b', teamId: people.teams.b });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.param).toBe('teamId');
    expect((await call('teamAdmin', 'POST', '/keys', { name: 'no team' })).status).toBe(403);
    expect((await call('teamAdmin', 'PATCH', `/keys/${keys.a.id}`, { teamId: people.teams.b })).status).toBe(403);
    expect((await call('teamAdmin', 'POST', '/keys', { name: 'in a', teamId: people.teams.a })).status).toBe(201);
    expect((await gw.admin('GET', `/keys/${keys.b.id}`)).body.name).toBe('key b');
  });

  it('sees only their teams, and their members', async () => {
    expect((await call('teamAdmin', 'GET', '/teams')).body.data.map((team: { id: string }) => team.id)).toEqual([people.teams.a]);
    expect((await call('teamAdmin', 'GET', `/teams/${people.teams.b}`)).status).toBe(404);
    expect((await call('teamAdmin', 'GET', `/teams/${people.teams.b}/members`)).status).toBe(404);
    expect((await call('teamAdmin', 'PUT', `/teams/${people.teams.b}/members`, { userId: people.users.teamAdmin })).status).toBe(404);
    expect((await call('teamAdmin', 'PUT', `/teams/${people.teams.a}/members`, { userId: people.users.nobody })).status).toBe(200);
    expect((await call('teamAdmin', 'GET', '/users')).body.data.map((user: { email: string }) => user.email).sort()).toEqual(['lead@example.com', 'nobody@example.com']);
    expect((await call('teamAdmin', 'GET', `/users/${people.users.owner}`)).status).toBe(404);
    expect((await call('teamAdmin', 'DELETE', `/teams/${people.teams.a}/members/${people.users.nobody}`)).status).toBe(200);
    expect((await call('teamAdmin', 'GET', `/users/${people.users.nobody}`)).status).toBe(404);
  });

  it('reads only their team’s logs, usage and tasks', async () => {
    const logs = (await call('teamAdmin', 'GET', '/logs')).body.data;
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs.map((row: { teamId: string }) => row.teamId))).toEqual(new Set([people.teams.a]));
    const otherRow = (await gw.admin('GET', `/logs?teamId=${people.teams.b}`)).body.data[0];
    expect((await call('teamAdmin', 'GET', `/logs/${otherRow.id}`)).status).toBe(404);
    for (const path of ['/logs', '/usage', '/usage/series', '/tasks']) {
      const refused = await call('teamAdmin', 'GET', `${path}?teamId=${people.teams.b}`);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toMatchObject({ type: 'permission', param: 'teamId' });
    }
    const usage = (await call('teamAdmin', 'GET', '/usage')).body;
    expect(usage.teams.map((row: { teamId: string }) => row.teamId)).toEqual([people.teams.a]);
    const series = (await call('teamAdmin', 'GET', '/usage/series?by=team')).body;
    expect(series.series.map((entry: { group: string }) => entry.group)).toEqual([people.teams.a]);
    expect((await call('teamAdmin', 'GET', '/tasks')).body.data.map((task: { id: string }) => task.id)).toEqual([tasks.a]);
    expect((await call('teamAdmin', 'GET', `/tasks/${tasks.b}`)).status).toBe(404);
    expect((await call('teamAdmin', 'GET', `/tasks/${tasks.a}`)).status).toBe(200);
    // A viewer reads everyone's.
    expect(new Set((await call('viewer', 'GET', '/tasks')).body.data.map((task: { id: string }) => task.id))).toEqual(new Set([tasks.a, tasks.b]));
    expect((await call('viewer', 'GET', '/usage')).body.teams.length).toBe(2);
  });

  it('reaches only their team’s budgets and their keys’, never a person’s', async () => {
    expect((await call('teamAdmin', 'GET', '/budgets')).body.data.map((budget: { id: string }) => budget.id)).toEqual([budgets.teamA]);
    for (const id of [budgets.teamB, budgets.keyB, budgets.user]) {
      expect((await call('teamAdmin', 'GET', `/budgets/${id}`)).status).toBe(404);
      expect((await call('teamAdmin', 'PATCH', `/budgets/${id}`, { amountUsd: 1 })).status).toBe(404);
      expect((await call('teamAdmin', 'DELETE', `/budgets/${id}`)).status).toBe(404);
    }
    const body = (scopeKind: string, scopeId: string) => ({ scopeKind, scopeId, amountUsd: 2, period: 'monthly', timeZone: 'UTC' });
    expect((await call('teamAdmin', 'POST', '/budgets', body('team', people.teams.b))).status).toBe(403);
    expect((await call('teamAdmin', 'POST', '/budgets', body('key', keys.b.id))).status).toBe(403);
    const person = await call('teamAdmin', 'POST', '/budgets', body('user', people.users.teamAdmin));
    expect(person.status).toBe(403);
    expect(person.body.error.message).toContain('a budget on a user needs the budgets.write permission across the gateway');
    expect((await call('teamAdmin', 'POST', '/budgets', body('key', keys.a.id))).status).toBe(201);
    expect((await call('teamAdmin', 'PATCH', `/budgets/${budgets.teamA}`, { amountUsd: 7 })).status).toBe(200);
  });
});
