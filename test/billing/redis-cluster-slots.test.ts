/**
 * Redis Cluster runs a script only over keys of one hash slot (else
 * CROSSSLOT): every script call the quota ledger makes, whatever the request
 * holds (a key's quota, its key's, user's and team's budgets, USD and
 * tokens), names keys of one slot, while the owners of one request land in
 * different slots. The slot is computed here as the cluster computes it.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { BudgetLimit } from '../../src/billing/budgets/budget-index.js';
import { PeriodCursor } from '../../src/billing/budgets/periods.js';
import { RedisQuotaLedger } from '../../src/billing/quota/redis-ledger.js';
import type { BudgetRecord } from '../../src/storage/budget-types.js';
import type { KeyRecord } from '../../src/storage/types.js';

/** CRC16-XMODEM (polynomial 0x1021), the checksum Redis Cluster takes modulo 16384. */
function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A key's slot: of the text between the first `{` and the next `}` when that is not empty, else of the whole name. */
function slotOf(name: string): number {
  const open = name.indexOf('{');
  const close = open < 0 ? -1 : name.indexOf('}', open + 1);
  const hashed = close > open + 1 ? name.slice(open + 1, close) : name;
  return crc16(Buffer.from(hashed)) % 16384;
}

const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

/** The keys of every script call sent, as ioredis sends them (EVALSHA, or EVAL after NOSCRIPT). */
const calls: string[][] = [];
const send = redis.sendCommand.bind(redis);
redis.sendCommand = (command, stream) => {
  if (command.name === 'evalsha' || command.name === 'eval') calls.push(command.getKeys().map(String));
  return send(command, stream);
};

const unique = () => randomBytes(6).toString('hex');

function limit(scopeKind: BudgetRecord['scopeKind'], amountUsd: number | null, tokens: number | null): BudgetLimit {
  const record = { id: `bud_${unique()}`, scopeKind, scopeId: 'x', name: scopeKind, amountUsd, tokens, period: 'daily', timeZone: 'UTC' } as BudgetRecord;
  return new BudgetLimit(record, new PeriodCursor(record.period, record.timeZone));
}

describe('every quota script call stays in one hash slot', () => {
  it('checks the helper against the slots Redis Cluster documents', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
    expect(slotOf('foo')).toBe(12182);
    expect(slotOf('{user1000}.following')).toBe(slotOf('{user1000}.followers'));
    expect(slotOf('foo{}{bar}')).toBe(crc16(Buffer.from('foo{}{bar}')) % 16384); // an empty tag hashes the whole name
  });

  it('holds, releases, refusals and adjustments of a key with a quota and three budgets', async () => {
    calls.length = 0;
    const ledger = new RedisQuotaLedger(redis);
    const key = { id: `key_${unique()}`, quota: 10 } as KeyRecord;
    const budgets = [limit('key', 5, 1000), limit('user', 5, null), limit('team', null, 1000)];
    const now = Date.now();
    const hold = await ledger.hold(key, 0.5, 0, { limits: budgets, tokens: 100, now });
    await hold.release(0.2, 50);
    await (await ledger.hold(key, 0.5, 0)).release(0.1);
    await expect(ledger.hold(key, 0.5, 0, { limits: [limit('team', 0, null), ...budgets], tokens: 1, now })).rejects.toMatchObject({ kind: 'quota_exhausted' });
    await ledger.adjust(key.id, -0.1);
    await ledger.adjustBudgets(budgets.map((budget) => ({ limit: budget, periodStart: budget.window(now).start, usd: -0.2, tokens: -50 })));
    expect(calls.length).toBeGreaterThanOrEqual(12);
    for (const keys of calls) {
      expect(keys.length).toBeGreaterThan(0);
      expect(new Set(keys.map(slotOf)).size, keys.join(' ')).toBe(1);
    }
    // The owners of one request are spread, not gathered in one slot.
    const slots = new Set(calls.map((keys) => slotOf(keys[0]!)));
    expect(slots.size).toBeGreaterThan(1);
  });
});
