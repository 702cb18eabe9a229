/**
 * Several quota counters held in one Redis script, all or none: the key's
 * quota and each budget's limits in their current periods, so instances
 * sharing Redis overspend a budget by at most the requests each admitted
 * while room was left. A counter is three entries, like a key's quota
 * (redis-ledger.ts): the settled spend (seeded by the first instance to use
 * it), the holds in flight and their expiry times. A budget's entries are
 * named by its period's start, so a new period starts a new counter.
 */
import type { KeyRecord } from '../../storage/types.js';
import type { BudgetLimit } from '../budgets/budget-index.js';
import type { BudgetClaim } from './ledger.js';

/** KEYS: three per counter. ARGV: now, hold id, expiry, idle TTL, then limit, amount, seed per counter. 0: held; n: counter n is spent. */
export const MULTI_HOLD_SCRIPT = `
local counters = #KEYS / 3
for c = 1, counters do
  local base = (c - 1) * 3
  local spent = redis.call('GET', KEYS[base + 1])
  if not spent then spent = ARGV[4 + (c - 1) * 3 + 3]; redis.call('SET', KEYS[base + 1], spent) end
  local expired = redis.call('ZRANGEBYSCORE', KEYS[base + 3], '-inf', ARGV[1])
  if #expired > 0 then
    redis.call('HDEL', KEYS[base + 2], unpack(expired))
    redis.call('ZREM', KEYS[base + 3], unpack(expired))
  end
  local held = 0
  for _, amount in ipairs(redis.call('HVALS', KEYS[base + 2])) do held = held + tonumber(amount) end
  if tonumber(spent) + held >= tonumber(ARGV[4 + (c - 1) * 3 + 1]) then return c end
end
for c = 1, counters do
  local base = (c - 1) * 3
  redis.call('HSET', KEYS[base + 2], ARGV[2], ARGV[4 + (c - 1) * 3 + 2])
  redis.call('ZADD', KEYS[base + 3], ARGV[3], ARGV[2])
  for i = 1, 3 do redis.call('EXPIRE', KEYS[base + i], ARGV[4]) end
end
return 0
`;

/** KEYS: three per counter. ARGV: hold id, idle TTL, then the actual amount per counter. */
export const MULTI_RELEASE_SCRIPT = `
for c = 1, #KEYS / 3 do
  local base = (c - 1) * 3
  redis.call('HDEL', KEYS[base + 2], ARGV[1])
  redis.call('ZREM', KEYS[base + 3], ARGV[1])
  if redis.call('EXISTS', KEYS[base + 1]) == 1 then
    redis.call('INCRBYFLOAT', KEYS[base + 1], ARGV[2 + c])
    redis.call('EXPIRE', KEYS[base + 1], ARGV[2])
  end
end
return 1
`;

/** What a counter measures: the cost in USD or the tokens. */
export type CounterUnit = 'usd' | 'tokens';

/** The counters of one request, in the order the scripts take them; `owners[i]` is the budget of counter i (undefined: the key's quota). */
export interface RequestCounters {
  keys: string[];
  /** limit, amount, seed per counter. */
  args: number[];
  units: CounterUnit[];
  owners: (BudgetLimit | undefined)[];
  periodStarts: number[];
}

export function keyQuotaKeys(keyId: string): [string, string, string] {
  const base = `switchyard:quota:{${keyId}}`;
  return [`${base}:spent`, `${base}:holds`, `${base}:expiry`];
}

function budgetKeys(budgetId: string, start: number, unit: CounterUnit): [string, string, string] {
  const base = `switchyard:budget:{${budgetId}}:${start}:${unit}`;
  return [`${base}:spent`, `${base}:holds`, `${base}:expiry`];
}

export function requestCounters(key: KeyRecord, estimate: number, settled: number, claim: BudgetClaim): RequestCounters {
  const counters: RequestCounters = { keys: [], args: [], units: [], owners: [], periodStarts: [] };
  if (key.quota !== null) {
    counters.keys.push(...keyQuotaKeys(key.id));
    counters.args.push(key.quota, estimate, settled);
    counters.units.push('usd');
    counters.owners.push(undefined);
  }
  for (const limit of claim.limits) {
    const start = limit.window(claim.now).start;
    counters.periodStarts.push(start);
    const { amountUsd, tokens, id } = limit.record;
    if (amountUsd !== null) {
      counters.keys.push(...budgetKeys(id, start, 'usd'));
      counters.args.push(amountUsd, estimate, limit.settledUsdIn(start));
      counters.units.push('usd');
      counters.owners.push(limit);
    }
    if (tokens !== null) {
      counters.keys.push(...budgetKeys(id, start, 'tokens'));
      counters.args.push(tokens, claim.tokens, limit.settledTokensIn(start));
      counters.units.push('tokens');
      counters.owners.push(limit);
    }
  }
  return counters;
}
