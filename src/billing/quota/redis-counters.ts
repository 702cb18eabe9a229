/**
 * Quota counters in Redis: the key's quota and each budget's limits in their
 * current periods. A counter is three entries, like a key's quota
 * (redis-ledger.ts): the settled spend (seeded by the first instance to use
 * it), the holds in flight and their expiry times. A budget's entries are
 * named by its period's start, so a new period starts a new counter.
 *
 * Redis Cluster runs a script only over keys of one hash slot, so one script
 * call touches the counters of one owner (a key's quota, or one budget's USD
 * and token limits), all named with the owner's hash tag (`{key_…}`,
 * `{bud_…}`); the owners of a request stay spread over the cluster, and the
 * ledger grants them all or none by releasing what it took when one refuses.
 */
import type { KeyRecord } from '../../storage/types.js';
import type { BudgetLimit } from '../budgets/budget-index.js';
import type { BudgetClaim } from './ledger.js';

/** KEYS: three per counter, one owner's. ARGV: now, hold id, expiry, idle TTL, then limit, amount, seed per counter. 0: held; n: counter n is spent. */
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

/** KEYS: three per counter, one owner's. ARGV: hold id, idle TTL, then the actual amount per counter (0 to give a hold back unspent). */
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

/** One owner's counters, held by one script call (one hash slot); `owner` is the budget (undefined: the key's quota). */
export interface CounterGroup {
  keys: string[];
  /** limit, amount, seed per counter. */
  args: number[];
  units: CounterUnit[];
  owner: BudgetLimit | undefined;
}

/** The counters of one request, a group per owner in the order refusals are reported; `periodStarts[i]` is the period of `claim.limits[i]`. */
export interface RequestCounters {
  groups: CounterGroup[];
  periodStarts: number[];
}

export function keyQuotaKeys(keyId: string): [string, string, string] {
  const base = `switchyard:quota:{${keyId}}`;
  return [`${base}:spent`, `${base}:holds`, `${base}:expiry`];
}

/** The names are those written before the per-owner calls, so live counters carry over unchanged. */
export function budgetKeys(budgetId: string, start: number, unit: CounterUnit): [string, string, string] {
  const base = `switchyard:budget:{${budgetId}}:${start}:${unit}`;
  return [`${base}:spent`, `${base}:holds`, `${base}:expiry`];
}

export function requestCounters(key: KeyRecord, estimate: number, settled: number, claim: BudgetClaim): RequestCounters {
  const counters: RequestCounters = { groups: [], periodStarts: [] };
  if (key.quota !== null) counters.groups.push({ keys: keyQuotaKeys(key.id), args: [key.quota, estimate, settled], units: ['usd'], owner: undefined });
  for (const limit of claim.limits) {
    const start = limit.window(claim.now).start;
    counters.periodStarts.push(start);
    const { amountUsd, tokens, id } = limit.record;
    const group: CounterGroup = { keys: [], args: [], units: [], owner: limit };
    if (amountUsd !== null) {
      group.keys.push(...budgetKeys(id, start, 'usd'));
      group.args.push(amountUsd, estimate, limit.settledUsdIn(start));
      group.units.push('usd');
    }
    if (tokens !== null) {
      group.keys.push(...budgetKeys(id, start, 'tokens'));
      group.args.push(tokens, claim.tokens, limit.settledTokensIn(start));
      group.units.push('tokens');
    }
    if (group.keys.length > 0) counters.groups.push(group);
  }
  return counters;
}
