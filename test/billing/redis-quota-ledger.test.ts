/**
 * The shared quota ledger on Redis: check-and-hold is atomic, a release adds
 * the actual cost, stored charges move the running total, and a hold whose
 * instance died expires.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisQuotaLedger } from '../../src/billing/quota/redis-ledger.js';
import type { KeyRecord } from '../../src/storage/types.js';

const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

const keyWith = (quota: number) => ({ id: `key_${randomBytes(6).toString('hex')}`, quota }) as KeyRecord;

describe('RedisQuotaLedger', () => {
  it('holds while room is left, seeded from the stored spend, and refuses once settled spend and holds reach the quota', async () => {
    const ledger = new RedisQuotaLedger(redis);
    const key = keyWith(1);
    const first = await ledger.hold(key, 0.4, 0.2); // 0.2 stored: 0.2 + 0 < 1
    const second = await ledger.hold(key, 0.4, 0); // the seed is read once: 0.2 + 0.4 < 1
    await expect(ledger.hold(key, 0.4, 0)).rejects.toMatchObject({ kind: 'quota_exhausted' }); // 0.2 + 0.8 >= 1
    await first.release(0.1);
    const third = await ledger.hold(key, 0.4, 0); // 0.3 + 0.4 < 1
    await second.release(0.5);
    await third.release(0.5); // 1.3 spent
    await expect(ledger.hold(key, 0.01, 0)).rejects.toMatchObject({ kind: 'quota_exhausted' });
    await ledger.adjust(key.id, -0.5); // a refund
    await (await ledger.hold(key, 0.01, 0)).release(0);
  });

  it('lets a hold left by a crashed instance expire', async () => {
    const ledger = new RedisQuotaLedger(redis, { holdTtlMs: 50 });
    const key = keyWith(1);
    await ledger.hold(key, 5, 0); // never released
    await expect(ledger.hold(key, 5, 0)).rejects.toMatchObject({ kind: 'quota_exhausted' });
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(ledger.hold(key, 5, 0)).resolves.toBeDefined();
  });
});
