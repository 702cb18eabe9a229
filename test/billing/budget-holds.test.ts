/**
 * Budgets held with the key's quota, in memory, on Redis and on PostgreSQL:
 * refused once a period's settled spend plus holds reach a limit, with the
 * budget and its reset named; a new period (the clock injected) starts from
 * nothing; three instances holding one almost-spent team budget at once
 * overspend it by at most one request each.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetIndex, BudgetLimit } from '../../src/billing/budgets/budget-index.js';
import { PeriodCursor } from '../../src/billing/budgets/periods.js';
import { type BudgetClaim, LocalQuotaLedger, type QuotaLedger } from '../../src/billing/quota/ledger.js';
import { PostgresQuotaLedger } from '../../src/billing/quota/postgres-ledger.js';
import { RedisQuotaLedger } from '../../src/billing/quota/redis-ledger.js';
import type { BudgetRecord } from '../../src/storage/budget-types.js';
import type { KeyRecord, Store } from '../../src/storage/types.js';
import { skipPostgres, useTestStore } from '../storage/engines.js';

const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

const NOON = Date.parse('2026-03-08T17:00:00Z'); // noon in New York, the day clocks spring forward
const unique = () => randomBytes(6).toString('hex');
const key = (quota: number | null = null) => ({ id: `key_${unique()}`, quota, teamId: 'team_eng', userId: null }) as KeyRecord;

function budget(fields: Partial<BudgetRecord>): BudgetRecord {
  return {
    id: `bud_${unique()}`,
    scopeKind: 'team',
    scopeId: 'team_eng',
    name: 'eng',
    amountUsd: 1,
    tokens: null,
    period: 'daily',
    timeZone: 'America/New_York',
    alertUrl: null,
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  } as BudgetRecord;
}

/** An instance's index holding `records`, with `settledUsd` already spent in each one's current period. */
function indexOf(records: BudgetRecord[], now: number, settledUsd = 0): BudgetIndex {
  const index = new BudgetIndex({ budgets: undefined as never }, () => now);
  const limits = records.map((record) => new BudgetLimit(record, new PeriodCursor(record.period, record.timeZone)));
  index.load(limits, now, new Map(records.map((record) => [record.id, { usd: settledUsd, tokens: 0 }])));
  return index;
}

const claim = (index: BudgetIndex, of: KeyRecord, tokens = 0): BudgetClaim => ({ limits: index.applicable(of)!, tokens, now: index.now() });

describe('budgets held in memory', () => {
  it('refuses once settled plus held reaches the limit, naming the budget and its reset', async () => {
    const ledger = new LocalQuotaLedger();
    const index = indexOf([budget({})], NOON, 0.9);
    const caller = key();
    const first = await ledger.hold(caller, 0.06, 0, claim(index, caller));
    const second = await ledger.hold(caller, 0.06, 0, claim(index, caller)); // 0.9 + 0.06 < 1
    const refused = ledger.hold(caller, 0.06, 0, claim(index, caller)); // 0.9 + 0.12 >= 1
    await expect(refused).rejects.toMatchObject({ kind: 'quota_exhausted' });
    await expect(refused).rejects.toThrow('the daily team budget "eng" is spent; it resets at 2026-03-09T04:00:00.000Z');
    await first.release(0.05);
    await second.release(0.05);
    expect(first.budgets?.map((limit) => limit.record.name)).toEqual(['eng']);
    expect(first.periodStarts).toEqual([Date.parse('2026-03-08T05:00:00Z')]);
  });

  it('holds the key quota and the budgets together: either refusal holds nothing', async () => {
    const ledger = new LocalQuotaLedger();
    const index = indexOf([budget({ amountUsd: null, tokens: 1000 })], NOON);
    const caller = key(1);
    await expect(ledger.hold(caller, 0.1, 0, claim(index, caller, 1200))).resolves.toBeDefined();
    await expect(ledger.hold(caller, 0.1, 0, claim(index, caller, 10))).rejects.toThrow(/team budget "eng" is spent/);
    await expect(ledger.hold(caller, 0.1, 1, claim(index, caller, 10))).rejects.toThrow('API key quota is exhausted');
  });

  it('starts a new period at local midnight: a spent daily budget has room again (the clock injected)', async () => {
    const ledger = new LocalQuotaLedger();
    let now = NOON;
    const index = new BudgetIndex({ budgets: undefined as never }, () => now);
    const record = budget({});
    const limit = new BudgetLimit(record, new PeriodCursor('daily', 'America/New_York'));
    index.load([limit], now, new Map([[record.id, { usd: 1, tokens: 0 }]]));
    const caller = key();
    await expect(ledger.hold(caller, 0.1, 0, claim(index, caller))).rejects.toMatchObject({ kind: 'quota_exhausted' });
    now = Date.parse('2026-03-09T03:59:59.999Z');
    await expect(ledger.hold(caller, 0.1, 0, claim(index, caller))).rejects.toMatchObject({ kind: 'quota_exhausted' });
    now = Date.parse('2026-03-09T04:00:00.000Z'); // midnight in New York, 23 hours after the last
    const hold = await ledger.hold(caller, 0.1, 0, claim(index, caller));
    expect(hold.periodStarts).toEqual([now]);
  });

  it('a key without quota and budgets finds nothing to hold', () => {
    const index = indexOf([budget({ scopeId: 'team_other' })], NOON);
    expect(index.applicable(key())).toBeUndefined();
    expect(indexOf([], NOON).applicable(key())).toBeUndefined();
  });
});

/** Three instances holding one team budget at once: how many were granted. */
async function concurrently(ledgers: QuotaLedger[], indexes: BudgetIndex[], estimate: number): Promise<number> {
  const attempts = Array.from({ length: 30 }, async (_, i) => {
    const caller = key();
    try {
      const hold = await ledgers[i % 3]!.hold(caller, estimate, 0, claim(indexes[i % 3]!, caller));
      await hold.release(estimate, 0);
      return 1;
    } catch (error) {
      expect(error).toMatchObject({ kind: 'quota_exhausted' });
      return 0;
    }
  });
  return (await Promise.all(attempts)).reduce<number>((sum, granted) => sum + granted, 0);
}

describe('a team budget shared by three instances', () => {
  it('on Redis: overspent by at most one request per instance', async () => {
    const record = budget({});
    const indexes = [0, 1, 2].map(() => indexOf([record], Date.now(), 0.9));
    const ledgers = [0, 1, 2].map(() => new RedisQuotaLedger(redis));
    const granted = await concurrently(ledgers, indexes, 0.03);
    // 0.1 left: holds of 0.03 are granted from 0.9, 0.93, 0.96 and 0.99, and none from 1.02, whichever instance asked.
    expect(granted).toBe(4);
    const start = indexes[0]!.applicable(key())![0]!.window(Date.now()).start;
    expect(Number(await redis.get(`switchyard:budget:{${record.id}}:${start}:usd:spent`))).toBeCloseTo(0.9 + 4 * 0.03, 9);
  });

  describe.skipIf(skipPostgres)('on PostgreSQL without Redis', () => {
    const opened = useTestStore('postgres', skipPostgres);
    let store: Store;
    beforeAll(() => {
      store = opened.store;
    });

    it('overspent by at most one request per instance, the spend written with each release', async () => {
      const record = await store.budgets.create({ scopeKind: 'team', scopeId: 'team_eng', name: 'eng', amountUsd: 1, period: 'daily', timeZone: 'America/New_York' });
      const now = Date.now();
      const indexes = [0, 1, 2].map(() => indexOf([record], now, 0));
      const start = indexes[0]!.applicable(key())![0]!.window(now).start;
      await store.budgets.addSpend([{ budgetId: record.id, periodStart: start, usd: 0.9, tokens: 0 }]);
      const ledgers = [0, 1, 2].map(() => new PostgresQuotaLedger(store.db, () => undefined));
      const granted = await concurrently(ledgers, indexes, 0.03);
      expect(granted).toBe(4);
      expect((await store.budgets.spent(record.id, start)).usd).toBeCloseTo(0.9 + 4 * 0.03, 9);
    });
  });
});
