/**
 * Quota holds in Redis, shared by every instance: per key, the cluster's
 * settled spend (seeded from the database the first time a key is seen, or
 * after it sat idle), the holds in flight and their expiry times, changed
 * only by two scripts so each check-and-hold is atomic. Keys carry a hash
 * tag so a Redis Cluster keeps one key's entries on one node.
 */
import type { Redis } from 'ioredis';
import { GatewayError } from '../../core/errors.js';
import type { KeyRecord } from '../../storage/types.js';
import { budgetExhausted } from '../budgets/budget-check.js';
import { type BudgetClaim, exhausted, HOLD_TTL_MS, holdId, NOTHING_HELD, type QuotaHold, type QuotaLedger } from './ledger.js';
import { keyQuotaKeys, MULTI_HOLD_SCRIPT, MULTI_RELEASE_SCRIPT, requestCounters } from './redis-counters.js';

/** A key's entries outlive its last request by this long, then are seeded again from the database. */
const IDLE_TTL_SECONDS = 3600;

const HOLD_SCRIPT = `
local spent = redis.call('GET', KEYS[1])
if not spent then spent = ARGV[6]; redis.call('SET', KEYS[1], spent) end
spent = tonumber(spent)
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
if #expired > 0 then
  redis.call('HDEL', KEYS[2], unpack(expired))
  redis.call('ZREM', KEYS[3], unpack(expired))
end
local held = 0
for _, amount in ipairs(redis.call('HVALS', KEYS[2])) do held = held + tonumber(amount) end
if spent + held >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[4], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
return 1
`;

const RELEASE_SCRIPT = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('INCRBYFLOAT', KEYS[1], ARGV[2])
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
return 1
`;

const ADJUST_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) end
return 1
`;

interface QuotaScripts {
  switchyardMultiHold(keyCount: number, ...args: (string | number)[]): Promise<number>;
  switchyardMultiRelease(keyCount: number, ...args: (string | number)[]): Promise<number>;
  switchyardQuotaAdjust(...args: (string | number)[]): Promise<number>;
  switchyardQuotaHold(...args: (string | number)[]): Promise<number>;
  switchyardQuotaRelease(...args: (string | number)[]): Promise<number>;
}

export class RedisQuotaLedger implements QuotaLedger {
  private readonly scripts: QuotaScripts;

  constructor(
    redis: Redis,
    private readonly options: {
      /** Where holds go while Redis cannot be reached (the `open` outage policy); unset: refuse with a 503. */
      fallback?: QuotaLedger;
      /** Told when Redis failed (a hold fell back or was refused, or a release was lost and will expire). */
      onError?: (error: unknown) => void;
      /** How long a hold outlives a request that never settles. */
      holdTtlMs?: number;
    } = {},
  ) {
    redis.defineCommand('switchyardQuotaHold', { numberOfKeys: 3, lua: HOLD_SCRIPT });
    redis.defineCommand('switchyardQuotaRelease', { numberOfKeys: 3, lua: RELEASE_SCRIPT });
    redis.defineCommand('switchyardQuotaAdjust', { numberOfKeys: 1, lua: ADJUST_SCRIPT });
    // The number of keys varies with the budgets of the request: given first at each call.
    redis.defineCommand('switchyardMultiHold', { lua: MULTI_HOLD_SCRIPT });
    redis.defineCommand('switchyardMultiRelease', { lua: MULTI_RELEASE_SCRIPT });
    this.scripts = redis as unknown as QuotaScripts;
  }

  async hold(key: KeyRecord, estimate: number, settled: number, budgets?: BudgetClaim): Promise<QuotaHold> {
    if (budgets) return this.holdMany(key, estimate, settled, budgets);
    if (key.quota === null) return NOTHING_HELD;
    const keys = keyQuotaKeys(key.id);
    const id = holdId();
    const now = Date.now();
    let granted: number;
    try {
      granted = await this.scripts.switchyardQuotaHold(...keys, now, key.quota, estimate, id, now + (this.options.holdTtlMs ?? HOLD_TTL_MS), settled, IDLE_TTL_SECONDS);
    } catch (error) {
      return this.unreachable(error, key, estimate, settled);
    }
    if (granted !== 1) throw exhausted();
    let released = false;
    return {
      recordsSpend: false,
      release: async (cost) => {
        if (released) return;
        released = true;
        try {
          await this.scripts.switchyardQuotaRelease(...keys, id, cost, IDLE_TTL_SECONDS);
        } catch (error) {
          this.options.onError?.(error);
        }
      },
    };
  }

  /** The key's quota and its budgets in one script: all held, or the first spent one named. */
  private async holdMany(key: KeyRecord, estimate: number, settled: number, budgets: BudgetClaim): Promise<QuotaHold> {
    const counters = requestCounters(key, estimate, settled, budgets);
    const id = holdId();
    const now = Date.now();
    let spent: number;
    try {
      spent = await this.scripts.switchyardMultiHold(counters.keys.length, ...counters.keys, now, id, now + (this.options.holdTtlMs ?? HOLD_TTL_MS), IDLE_TTL_SECONDS, ...counters.args);
    } catch (error) {
      return this.unreachable(error, key, estimate, settled, budgets);
    }
    if (spent !== 0) {
      const owner = counters.owners[spent - 1];
      throw owner ? budgetExhausted(owner, budgets.now) : exhausted();
    }
    let released = false;
    return {
      recordsSpend: false,
      budgets: budgets.limits,
      periodStarts: counters.periodStarts,
      release: async (cost, tokens = 0) => {
        if (released) return;
        released = true;
        const amounts = counters.units.map((unit) => (unit === 'usd' ? cost : tokens));
        try {
          await this.scripts.switchyardMultiRelease(counters.keys.length, ...counters.keys, id, IDLE_TTL_SECONDS, ...amounts);
        } catch (error) {
          this.options.onError?.(error);
        }
      },
    };
  }

  private unreachable(error: unknown, key: KeyRecord, estimate: number, settled: number, budgets?: BudgetClaim): Promise<QuotaHold> {
    this.options.onError?.(error);
    if (this.options.fallback) return this.options.fallback.hold(key, estimate, settled, budgets);
    throw new GatewayError('unavailable', "the gateway cannot reach its quota store, so this key's quota and budgets cannot be checked; retry shortly", {
      cause: error,
      retryAfterSeconds: 5,
    });
  }

  async adjust(keyId: string, amount: number): Promise<void> {
    if (amount === 0) return;
    try {
      await this.scripts.switchyardQuotaAdjust(keyQuotaKeys(keyId)[0], amount);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
