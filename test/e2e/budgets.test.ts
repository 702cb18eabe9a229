/**
 * Budgets through a running gateway: a key's budget, created through the
 * admin API, is checked before each chat request and task submission; once
 * spent, requests are refused in the family's quota shape naming the budget
 * and its reset (embeddings too), and the admin API shows what the period spent. Every path
 * holds through the same `holdQuota` (chat families, pass-through and
 * WebSocket turns alike), tasks through `holdBudgets`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const freshSchema = freshSchemas('budgets_e2e');

const SECRET = 'sk-budgets-e2e-0001';
let gw: TestGateway;
let keyId: string;

beforeAll(async () => {
  gw = await startGateway({
    config: {
      keys: [{ name: 'budgeted', key: SECRET }],
      // About $0.01 a token: one simulator answer costs a few tenths of a dollar.
      prices: { 'budget-*': { input: 100, output: 10_000 }, 'ig_*': { perCall: 0.1 } },
    },
  });
  keyId = (await gw.admin('GET', '/keys')).body.data.find((key: { name: string }) => key.name === 'budgeted').id;
});
afterAll(() => gw?.close());

const chat = () =>
  fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': SECRET, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'budget-model', max_tokens: 20, messages: [{ role: 'user', content: 'spend a little' }] }),
  });

describe('a key budget in a running gateway', () => {
  it('is charged by chat requests and tasks, then refuses in the family shape with the budget and its reset', async () => {
    const created = await gw.admin('POST', '/budgets', { scopeKind: 'key', scopeId: keyId, name: 'cap', amountUsd: 1, period: 'daily', timeZone: 'Asia/Tokyo' });
    expect(created.status).toBe(201);
    const budget = created.body;

    const first = await chat();
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const task = await fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a fox' }),
    });
    expect(task.status).toBe(200);
    await task.arrayBuffer();
    const charged = (await gw.admin('GET', `/budgets/${budget.id}`)).body;
    const logs = (await gw.admin('GET', '/logs?limit=10')).body.data as { cost: number }[];
    const total = logs.reduce((sum, row) => sum + row.cost, 0);
    expect(total).toBeGreaterThan(0.1);
    expect(charged.spent.usd).toBeCloseTo(total, 9);
    expect(charged.spent.tokens).toBeGreaterThan(0);
    expect(charged.remaining.usd).toBeCloseTo(1 - total, 9);

    let refused: Response | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const answer = await chat();
      if (answer.status !== 200) refused = answer;
      else await answer.arrayBuffer();
    }
    expect(refused?.status).toBe(403);
    const body = (await refused!.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.message).toBe(`the daily key budget "cap" is spent; it resets at ${charged.resetsAt}`);
    // Tokyo midnight is 15:00 UTC.
    expect(charged.resetsAt).toMatch(/T15:00:00\.000Z$/);

    const taskRefused = await fetch(`${gw.url}/ig/submit/imagine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'another fox' }),
    });
    const taskBody = (await taskRefused.json()) as { description: string };
    expect(taskBody.description).toMatch(/key budget "cap" is spent/);

    const embeddings = await fetch(`${gw.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'budget-embed', input: 'hello' }),
    });
    expect(embeddings.status).toBe(403);
    expect(((await embeddings.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'insufficient_quota',
      message: expect.stringContaining('key budget "cap" is spent'),
    });

    // Raised: the next request has room again, at once.
    await gw.admin('PATCH', `/budgets/${budget.id}`, { amountUsd: 100 });
    const again = await chat();
    expect(again.status).toBe(200);
    await again.arrayBuffer();
  });
});

describe('a task refunded', () => {
  it('gives its charge back to the budget’s period it was charged in', async () => {
    const broken = await startGateway({
      config: {
        // An upstream that refuses connections: the submission fails and its charge is refunded.
        channels: [{ name: 'broken', type: 'ig-proxy', baseUrl: 'http://127.0.0.1:1', models: ['ig_*'], settings: { accounts: [{ instanceId: 'broken-acc' }] } }],
        keys: [{ name: 'refunded', key: 'sk-budgets-refund-0001' }],
        prices: { 'ig_*': { perCall: 0.1 } },
      },
    });
    try {
      const key = (await broken.admin('GET', '/keys')).body.data[0].id;
      const budget = (await broken.admin('POST', '/budgets', { scopeKind: 'key', scopeId: key, amountUsd: 1, period: 'weekly' })).body;
      const task = await fetch(`${broken.url}/ig/submit/imagine`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-budgets-refund-0001', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a fox' }),
      });
      expect(task.status).not.toBe(200);
      await task.arrayBuffer();
      // The refund is applied after the failure is written, off the request.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await broken.admin('GET', `/budgets/${budget.id}`)).body.spent.usd).toBeCloseTo(0, 9);
      const logs = (await broken.admin('GET', '/logs')).body.data as { cost: number }[];
      expect(logs.some((row) => row.cost === -0.1)).toBe(true);
    } finally {
      await broken.close();
    }
  });
});

describe.skipIf(skipPostgres)('a task held against a budget on PostgreSQL without Redis', () => {
  it('charges the key once (with the task) and the budget once (with the release)', async () => {
    const pg = await startGateway({
      config: { keys: [{ name: 'tasks', key: 'sk-budgets-pg-task-0001' }], prices: { 'ig_*': { perCall: 0.1 } } },
      settings: { databaseUrl: postgresUrl, databaseSchema: freshSchema() },
    });
    try {
      const key = (await pg.admin('GET', '/keys')).body.data[0].id;
      const budget = (await pg.admin('POST', '/budgets', { scopeKind: 'key', scopeId: key, amountUsd: 1, period: 'daily' })).body;
      const task = await fetch(`${pg.url}/ig/submit/imagine`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-budgets-pg-task-0001', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a fox' }),
      });
      expect(task.status).toBe(200);
      await task.arrayBuffer();
      expect((await pg.admin('GET', `/keys/${key}`)).body.used).toBeCloseTo(0.1, 9);
      // The release is written off the request: wait for it.
      let spent = 0;
      for (let i = 0; i < 40 && spent === 0; i++) {
        spent = (await pg.admin('GET', `/budgets/${budget.id}`)).body.spent.usd;
        if (spent === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(spent).toBeCloseTo(0.1, 9);
      expect((await pg.admin('GET', `/keys/${key}`)).body.used).toBeCloseTo(0.1, 9);
    } finally {
      await pg.close();
    }
  });
});

describe('a team budget shared by the team’s keys', () => {
  it('counts every key of the team, refuses them all once spent, and leaves other keys alone', async () => {
    const team = (await gw.admin('POST', '/teams', { name: 'budget-team' })).body;
    const user = (await gw.admin('POST', '/users', { email: 'budget-user@example.com' })).body;
    expect((await gw.admin('PUT', `/teams/${team.id}/members`, { userId: user.id })).status).toBe(200);
    const teamKey = (await gw.admin('POST', '/keys', { name: 'budget-team-ci', teamId: team.id })).body;
    const userKey = (await gw.admin('POST', '/keys', { name: 'budget-team-user', teamId: team.id, userId: user.id })).body;
    const outsider = (await gw.admin('POST', '/keys', { name: 'budget-outsider' })).body;
    expect((await gw.admin('POST', '/budgets', { scopeKind: 'team', scopeId: 'team_nope', amountUsd: 1, period: 'monthly' })).body.error).toMatchObject({ param: 'scopeId' });
    const budget = (await gw.admin('POST', '/budgets', { scopeKind: 'team', scopeId: team.id, name: 'team cap', amountUsd: 0.8, period: 'monthly' })).body;
    const ask = (secret: string) =>
      fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'budget-model', max_tokens: 20, messages: [{ role: 'user', content: 'spend a little' }] }),
      }).then(async (answer) => ({ status: answer.status, text: await answer.text() }));
    const statuses: number[] = [];
    for (let i = 0; i < 20 && !statuses.includes(403); i++) statuses.push((await ask(i % 2 === 0 ? teamKey.key : userKey.key)).status);
    expect(statuses.at(-1)).toBe(403);
    // Both keys spent it: the budget's period counted the requests of each.
    const spent = (await gw.admin('GET', `/budgets/${budget.id}`)).body;
    expect(spent.spent.usd).toBeGreaterThanOrEqual(0.8);
    const refusedUser = await ask(userKey.key);
    expect(refusedUser.status).toBe(403);
    expect((JSON.parse(refusedUser.text) as { error: { message: string } }).error.message).toMatch(/^the monthly team budget "team cap" is spent; it resets at /);
    expect((await ask(outsider.key)).status).toBe(200);
  });
});
