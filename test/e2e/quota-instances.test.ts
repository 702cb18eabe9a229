/**
 * A key's quota holds across instances: three gateways on one PostgreSQL
 * database (with Redis, and without it) hit concurrently with one key whose
 * quota covers a few requests. Each request holds its possible cost before
 * routing, so the cluster overspends by at most one request per instance
 * (it once spent three times the quota).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const freshSchema = freshSchemas('quota');

const QUOTA = 0.6;

async function spendConcurrently(withRedis: boolean): Promise<{ used: number; costs: number[]; statuses: number[] }> {
  const schema = freshSchema();
  const secret = `sk-quota-${randomBytes(8).toString('hex')}`;
  const config = {
    keys: [{ name: 'capped', key: secret, quota: QUOTA }],
    // About $0.01 a token: one simulator answer costs a few tenths of the quota.
    prices: { 'quota-*': { input: 100, output: 10_000 } },
  };
  const settings = { databaseUrl: postgresUrl, databaseSchema: schema, ...(withRedis ? { redisUrl } : {}) };
  const instances: TestGateway[] = [];
  for (let i = 0; i < 3; i++) instances.push(await startGateway({ config, settings }));
  try {
    const send = (gw: TestGateway) =>
      fetch(`${gw.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'quota-model', max_tokens: 40, messages: [{ role: 'user', content: 'spend a little' }] }),
      });
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => send(instances[i % 3])));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.arrayBuffer()));
    for (const gw of instances) await gw.close();
    const reader = await startGateway({ config, settings });
    instances.length = 0;
    instances.push(reader);
    const logs = await reader.admin('GET', '/logs?limit=100');
    const costs = (logs.body.data as { cost: number }[]).map((row) => row.cost).filter((cost) => cost > 0);
    const keys = await reader.admin('GET', '/keys');
    const used = (keys.body.data as { name: string; used: number }[]).find((key) => key.name === 'capped')!.used;
    return { used, costs, statuses };
  } finally {
    for (const gw of instances) await gw.close();
  }
}

describe.skipIf(skipPostgres)('a quota shared by three instances', () => {
  for (const withRedis of [true, false]) {
    it(`is overspent by at most one request per instance (${withRedis ? 'Redis' : 'PostgreSQL, no Redis'})`, async () => {
      const { used, costs, statuses } = await spendConcurrently(withRedis);
      expect(statuses.filter((status) => status === 200).length).toBe(costs.length);
      expect(statuses.some((status) => status !== 200)).toBe(true);
      const largest = Math.max(...costs);
      expect(used).toBeCloseTo(
        costs.reduce((sum, cost) => sum + cost, 0),
        6,
      );
      expect(used).toBeLessThanOrEqual(QUOTA + 3 * largest + 1e-9);
      expect(used).toBeGreaterThan(0);
    }, 60_000);
  }
});
