/**
 * Prices on a cluster: two gateways on one PostgreSQL database. A price set
 * through instance A's admin API is charged by instance B's next request
 * within moments through the change feed (Redis pub/sub, or LISTEN/NOTIFY
 * without Redis), with the refresh a minute away; a price written with no
 * notification (as the CLI writes) within B's refresh interval. The config
 * file's prices show as `config`, survive an instance that starts with the
 * same file, and go when an instance starts with a file that dropped them.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/open.js';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const freshSchema = freshSchemas('prices');

async function eventually<T>(probe: () => Promise<T | undefined>, withinMs: number): Promise<{ value: T; afterMs: number }> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const value = await probe();
    if (value !== undefined) return { value, afterMs: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not seen within ${withinMs} ms`);
}

function cluster(refreshIntervalMs: number, withRedis = false) {
  const schema = freshSchema();
  const secret = `sk-prices-${randomBytes(8).toString('hex')}`;
  const config = (prices: Record<string, unknown>) => ({ keys: [{ name: 'payer', key: secret }], channels: [{ name: 'sim', type: 'simulator', models: ['*'] }], prices });
  const settings = { databaseUrl: postgresUrl, databaseSchema: schema, refreshIntervalMs, ...(withRedis ? { redisUrl } : {}) };
  const start = (prices: Record<string, unknown> = { 'file-*': { input: 1, output: 2 } }) => startGateway({ config: config(prices), settings });
  /** One chat request through `gw`, and the cost its log row and the key's spend say it was charged. */
  const charge = async (gw: TestGateway, model: string) => {
    const before = await spent(gw);
    const response = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 30, messages: [{ role: 'user', content: 'price this' }] }),
    });
    expect(response.status).toBe(200);
    const { usage } = (await response.json()) as { usage: { input_tokens: number; output_tokens: number } };
    const requestId = response.headers.get('x-request-id');
    const { value: logged } = await eventually(async () => {
      const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}&limit=5`)).body.data as { requestId: string; cost: number }[];
      return rows.find((row) => row.requestId === requestId);
    }, 5000);
    return { usage, cost: logged.cost as number, spent: (await spent(gw)) - before };
  };
  const spent = async (gw: TestGateway) => (await gw.admin('GET', '/keys')).body.data.find((key: { name: string }) => key.name === 'payer').used as number;
  const quoted = (gw: TestGateway, model: string) => gw.admin('GET', `/prices/quote?model=${encodeURIComponent(model)}`).then((answer) => answer.body.quote);
  return { schema, start, charge, quoted };
}

describe.skipIf(skipPostgres)('prices on two instances', () => {
  for (const withRedis of [true, false]) {
    it(`a price set on one instance is charged by the other's next request at once (${withRedis ? 'Redis pub/sub' : 'LISTEN/NOTIFY'})`, async () => {
      const { start, charge, quoted } = cluster(60_000, withRedis);
      const a = await start();
      const b = await start();
      try {
        const model = 'cluster-model';
        expect((await charge(b, model)).cost).toBe(0);

        expect((await a.admin('PUT', `/prices/${encodeURIComponent('cluster-*')}`, { input: 2000, output: 8000 })).status).toBe(200);
        const { afterMs } = await eventually(async () => ((await quoted(b, model))?.source === 'admin' ? true : undefined), 3000);
        expect(afterMs).toBeLessThan(3000);
        const { usage, cost, spent } = await charge(b, model);
        const expected = (usage.input_tokens * 2000 + usage.output_tokens * 8000) / 1_000_000;
        expect(expected).toBeGreaterThan(0);
        expect(cost).toBeCloseTo(expected, 12);
        expect(spent).toBeCloseTo(expected, 9);

        // Deleted on A: B charges nothing again.
        expect((await a.admin('DELETE', `/prices/${encodeURIComponent('cluster-*')}`)).status).toBe(200);
        await eventually(async () => ((await quoted(b, model)) === null ? true : undefined), 3000);
        expect((await charge(b, model)).cost).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    }, 30_000);
  }

  it('a price written with no notification (as the CLI writes) is charged within the refresh interval', async () => {
    const { schema, start, charge, quoted } = cluster(300);
    const b = await start();
    const store = await openStore({ databaseUrl: postgresUrl, dataDir: b.dataDir, schema });
    try {
      await store.prices.put('quiet-*', { input: 500, output: 500 }, 'admin');
      const { afterMs } = await eventually(async () => ((await quoted(b, 'quiet-model'))?.matched === 'quiet-*' ? true : undefined), 3000);
      expect(afterMs).toBeLessThan(1500);
      const { usage, cost } = await charge(b, 'quiet-model');
      expect(cost).toBeCloseTo(((usage.input_tokens + usage.output_tokens) * 500) / 1_000_000, 12);

      // A row edited by hand into nonsense: skipped, the last good prices of the others stay.
      await store.db.updateTable('prices').set({ price: 'not json' }).where('model', '=', 'quiet-*').execute();
      await eventually(async () => (b.gateway.ctx.storedPrices.problems().length > 0 ? true : undefined), 3000);
      expect(await quoted(b, 'quiet-model')).toBeNull();
      expect(await quoted(b, 'file-model')).toMatchObject({ source: 'config', price: { input: 1, output: 2 } });
    } finally {
      await store.close();
      await b.close();
    }
  }, 30_000);

  it('the config file’s prices show as config, survive a start with the same file and go with a file that dropped them', async () => {
    const { start } = cluster(60_000);
    const a = await start({ 'file-*': { input: 1, output: 2 }, 'old-*': { input: 5 } });
    try {
      const listed = async () =>
        ((await a.admin('GET', '/prices')).body.data as { model: string; source: string; configOwned: boolean }[]).map((row) => `${row.model} ${row.source}${row.configOwned ? ' owned' : ''}`);
      expect(await listed()).toEqual(['file-* config owned', 'old-* config owned']);
      await a.admin('PUT', `/prices/${encodeURIComponent('file-*')}`, { input: 1.5, output: 2 });
      await a.admin('PUT', `/prices/${encodeURIComponent('mine-*')}`, { input: 7 });

      // A second instance with the same file: the operator's change to file-* stays.
      const same = await start({ 'file-*': { input: 1, output: 2 }, 'old-*': { input: 5 } });
      await same.close();
      expect(await listed()).toEqual(['file-* admin owned', 'mine-* admin', 'old-* config owned']);

      // A start with a file that dropped old-* and changed file-*: old-* goes, file-* is the file's again, mine-* stays.
      const changed = await start({ 'file-*': { input: 3, output: 2 } });
      try {
        expect(await listed()).toEqual(['file-* config owned', 'mine-* admin']);
        // The instance that applied it charges the file's price at once.
        expect((await changed.admin('GET', '/prices/quote?model=file-model')).body.quote).toMatchObject({ source: 'config', price: { input: 3 } });
      } finally {
        await changed.close();
      }
    } finally {
      await a.close();
    }
  }, 30_000);
});
