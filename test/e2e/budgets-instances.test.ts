/**
 * A budget holds across instances: three gateways on one PostgreSQL
 * database (with Redis, and without it) hit concurrently with one key whose
 * daily budget covers a few requests. The budget, created on one instance,
 * reaches the others through the change feed; each request holds its
 * possible cost against it before routing, so the cluster overspends by at
 * most one request per instance.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const freshSchema = freshSchemas('budgets');

const LIMIT = 0.6;

async function spendConcurrently(withRedis: boolean) {
  const secret = `sk-budget-${randomBytes(8).toString('hex')}`;
  const config = { keys: [{ name: 'budgeted', key: secret }], prices: { 'budget-*': { input: 100, output: 10_000 } } };
  const settings = { databaseUrl: postgresUrl, databaseSchema: freshSchema(), ...(withRedis ? { redisUrl } : {}) };
  const instances: TestGateway[] = [];
  try {
    for (let i = 0; i < 3; i++) instances.push(await startGateway({ config, settings }));
    const keyId = (await instances[0]!.admin('GET', '/keys')).body.data[0].id as string;
    const budget = (await instances[0]!.admin('POST', '/budgets', { scopeKind: 'key', scopeId: keyId, name: 'shared', amountUsd: LIMIT, period: 'daily' })).body;
    // The change feed tells the other two.
    await sleep(500);
    const send = (gw: TestGateway) =>
      fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'budget-model', max_tokens: 40, messages: [{ role: 'user', content: 'spend a little' }] }),
      });
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => send(instances[i % 3]!)));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    // A budget read flushes the instance's batched spend and log rows.
    for (const gw of instances) await gw.admin('GET', '/budgets');
    const logs = (await instances[0]!.admin('GET', '/logs?limit=100')).body.data as { cost: number }[];
    const view = (await instances[0]!.admin('GET', `/budgets/${budget.id}`)).body;
    const used = (await instances[0]!.admin('GET', `/keys/${keyId}`)).body.used as number;
    return { spent: view.spent.usd as number, used, costs: logs.map((row) => row.cost).filter((cost) => cost > 0), statuses };
  } finally {
    for (const gw of instances) await gw.close();
  }
}

describe.skipIf(skipPostgres)('a budget shared by three instances', () => {
  for (const withRedis of [true, false]) {
    it(`is overspent by at most one request per instance (${withRedis ? 'Redis' : 'PostgreSQL, no Redis'})`, async () => {
      const { spent, used, costs, statuses } = await spendConcurrently(withRedis);
      expect(statuses.filter((status) => status === 200).length).toBe(costs.length);
      expect(statuses.filter((status) => status === 403).length).toBeGreaterThan(0);
      expect(spent).toBeCloseTo(
        costs.reduce((sum, cost) => sum + cost, 0),
        6,
      );
      expect(spent).toBeLessThanOrEqual(LIMIT + 3 * Math.max(...costs) + 1e-9);
      // The key has no quota: its spend is still written, once.
      expect(used).toBeCloseTo(spent, 6);
    }, 60_000);
  }
});
