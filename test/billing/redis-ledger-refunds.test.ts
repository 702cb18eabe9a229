/**
 * The Redis ledger's shared counters hold what was settled, not what was
 * held: a hold settled lower adds only the settled amount, a hold given back
 * unspent adds nothing, and a refund takes a charge off, for a key's quota
 * and for a budget, with two ledgers (two instances) sharing one Redis.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { BudgetIndex, BudgetLimit } from '../../src/billing/budgets/budget-index.js';
import { PeriodCursor } from '../../src/billing/budgets/periods.js';
import { budgetKeys, keyQuotaKeys } from '../../src/billing/quota/redis-counters.js';
import { RedisQuotaLedger } from '../../src/billing/quota/redis-ledger.js';
import type { UsageRecorder } from '../../src/billing/usage-recorder.js';
import { refundBudgets } from '../../src/pipeline/quota-hold.js';
import type { BudgetRecord } from '../../src/storage/budget-types.js';
import type { KeyRecord } from '../../src/storage/types.js';

const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

const unique = () => randomBytes(6).toString('hex');
const keyWith = (quota: number | null) => ({ id: `key_${unique()}`, quota, teamId: 'team_eng', userId: null }) as KeyRecord;

function teamBudget(fields: Partial<BudgetRecord> = {}): BudgetLimit {
  const record = {
    id: `bud_${unique()}`,
    scopeKind: 'team',
    scopeId: 'team_eng',
    name: 'eng',
    amountUsd: 10,
    tokens: 10_000,
    period: 'monthly',
    timeZone: 'UTC',
    alertUrl: null,
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  } as BudgetRecord;
  return new BudgetLimit(record, new PeriodCursor(record.period, record.timeZone));
}

const number = async (name: string) => Number(await redis.get(name));
const quotaSpent = (key: KeyRecord) => number(keyQuotaKeys(key.id)[0]);

describe('the Redis ledger settles what was spent, not what was held', () => {
  it("a key's quota: settled lower, given back at zero, refunded; across two instances", async () => {
    const [one, two] = [new RedisQuotaLedger(redis), new RedisQuotaLedger(redis)];
    const key = keyWith(5);
    const first = await one.hold(key, 2, 0);
    const second = await two.hold(key, 2, 0);
    await first.release(0.25); // held 2, spent 0.25
    expect(await quotaSpent(key)).toBeCloseTo(0.25, 9);
    await second.release(0); // a failed request
    expect(await quotaSpent(key)).toBeCloseTo(0.25, 9);
    expect(await redis.hlen(keyQuotaKeys(key.id)[1])).toBe(0);
    await two.adjust(key.id, -0.25); // refunded
    expect(await quotaSpent(key)).toBeCloseTo(0, 9);
    // Nothing left over: holds near the whole quota are granted again.
    await expect(one.hold(key, 4.9, 0)).resolves.toBeDefined();
  });

  it('a budget: settled lower, given back at zero, a task charge refunded; across two instances', async () => {
    const [one, two] = [new RedisQuotaLedger(redis), new RedisQuotaLedger(redis)];
    const limit = teamBudget();
    const now = Date.now();
    const start = limit.window(now).start;
    const usd = () => number(budgetKeys(limit.record.id, start, 'usd')[0]);
    const tokens = () => number(budgetKeys(limit.record.id, start, 'tokens')[0]);
    const claim = (held: number) => ({ limits: [limit], tokens: held, now });
    const first = await one.hold(keyWith(null), 4, 0, claim(4000));
    const second = await two.hold(keyWith(null), 4, 0, claim(4000));
    await first.release(1, 300);
    expect(await usd()).toBeCloseTo(1, 9);
    expect(await tokens()).toBe(300);
    await second.release(0, 0);
    expect(await usd()).toBeCloseTo(1, 9);
    expect(await tokens()).toBe(300);
    // A task's charge: held and settled at its price, then refunded when the task fails.
    const task = await two.hold({ ...keyWith(null), quota: null }, 3, 0, { ...claim(0), keyCharged: true });
    await task.release(3, 0);
    expect(await usd()).toBeCloseTo(4, 9);
    await one.adjustBudgets([{ limit, periodStart: start, usd: -3, tokens: 0 }]);
    expect(await usd()).toBeCloseTo(1, 9);
    expect(await tokens()).toBe(300);
    // 9 of the 10 USD are left to hold.
    await expect(one.hold(keyWith(null), 8.9, 0, claim(0))).resolves.toBeDefined();
  });

  it('a refused budget gives back what the other owners of the request took', async () => {
    const ledger = new RedisQuotaLedger(redis);
    const open = teamBudget();
    const spent = teamBudget({ amountUsd: 1, tokens: null, name: 'spent' });
    const now = Date.now();
    const start = open.window(now).start;
    await redis.set(budgetKeys(spent.record.id, start, 'usd')[0], '1'); // already at its limit
    const key = keyWith(5);
    await expect(ledger.hold(key, 0.5, 0, { limits: [open, spent], tokens: 10, now })).rejects.toThrow(/budget "spent" is spent/);
    expect(await redis.hlen(keyQuotaKeys(key.id)[1])).toBe(0);
    expect(await redis.hlen(budgetKeys(open.record.id, start, 'usd')[1])).toBe(0);
    expect(await redis.hlen(budgetKeys(open.record.id, start, 'tokens')[1])).toBe(0);
    expect(await quotaSpent(key)).toBe(0);
  });

  it("a failed task's refund reaches the shared counter of each of its key's budgets", async () => {
    const ledger = new RedisQuotaLedger(redis);
    const limit = teamBudget();
    const now = Date.now();
    const index = new BudgetIndex({ budgets: undefined as never }, () => now);
    index.load([limit], now, new Map());
    const key = keyWith(null);
    const usd = () => number(budgetKeys(limit.record.id, limit.window(now).start, 'usd')[0]);
    const charge = await ledger.hold(key, 2, 0, { limits: index.applicable(key)!, tokens: 0, now, keyCharged: true });
    await charge.release(2, 0);
    expect(await usd()).toBeCloseTo(2, 9);
    const written: number[] = [];
    const recorder = { addBudgetSpend: (_id: string, _start: number, amount: number) => written.push(amount) } as unknown as UsageRecorder;
    refundBudgets({ budgets: index, recorder, quota: ledger }, key, 2, now);
    expect(written).toEqual([-2]);
    await expect.poll(usd).toBeCloseTo(0, 9);
  });
});
