/**
 * Admin changes reach every instance at once: with the periodic refresh set
 * to a minute, a key disabled and a channel disabled on one instance are
 * refused by another within moments, through Redis pub/sub or, without
 * Redis, PostgreSQL LISTEN/NOTIFY.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshSchemas, postgresUrl, skipPostgres } from '../storage/engines.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const freshSchema = freshSchemas('notify');

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not seen within ${withinMs} ms`);
}

describe.skipIf(skipPostgres)('admin changes reach the other instances at once', () => {
  for (const withRedis of [true, false]) {
    it(`through ${withRedis ? 'Redis pub/sub' : 'PostgreSQL LISTEN/NOTIFY'}`, async () => {
      const schema = freshSchema();
      const secret = `sk-notify-${randomBytes(8).toString('hex')}`;
      const config = { keys: [{ name: 'watched', key: secret }], channels: [{ name: 'sim', type: 'simulator', models: ['notify-*'] }] };
      const settings = { databaseUrl: postgresUrl, databaseSchema: schema, refreshIntervalMs: 60_000, simulator: false, ...(withRedis ? { redisUrl } : {}) };
      const a: TestGateway = await startGateway({ config, settings });
      const b: TestGateway = await startGateway({ config, settings });
      const send = (model: string) =>
        fetch(`${b.url}/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
          body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
        });
      try {
        expect((await send('notify-model')).status).toBe(200);

        const channel = (await a.admin('GET', '/channels')).body.data.find((row: { name: string }) => row.name === 'sim');
        expect((await a.admin('PATCH', `/channels/${channel.id}`, { enabled: false })).status).toBe(200);
        await eventually(async () => (await send('notify-model')).status !== 200, 3000);

        const key = (await a.admin('GET', '/keys')).body.data.find((row: { name: string }) => row.name === 'watched');
        expect((await a.admin('PATCH', `/keys/${key.id}`, { status: 'disabled' })).status).toBe(200);
        await eventually(async () => (await send('notify-model')).status === 401, 3000);
      } finally {
        await a.close();
        await b.close();
      }
    }, 30_000);
  }
});
