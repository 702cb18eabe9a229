/**
 * Quota holds in Redis, shared by every instance: per key, the cluster's
 * settled spend (seeded from the database the first time a key is seen, or
 * after it sat idle), the holds in flight and their expiry times, changed
 * only by scripts so each check-and-hold is atomic. Keys carry their owner's
 * hash tag and every script call touches one owner's, so a Redis Cluster
 * keeps each call on one node (redis-counters.ts).
 */
import type { Redis } from 'ioredis';
import { GatewayError } from '../../core/errors.js';
import type { KeyRecord } from '../../storage/types.js';
import { budgetExhausted } from '../budgets/budget-check.js';
import { type BudgetAdjustment, type BudgetClaim, exhausted, HOLD_TTL_MS, holdId, NOTHING_HELD, type QuotaHold, type QuotaLedger } from './ledger.js';
import { budgetKeys, type CounterGroup, type CounterUnit, keyQuotaKeys, MULTI_HOLD_SCRIPT, MULTI_RELEASE_SCRIPT, requestCounters } from './redis-counters.js';

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
    // The number of keys varies with the owner's limits (a budget's USD and tokens): given first at each call.
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

  /**
   * The key's quota and its budgets, one script call per owner (each in its
   * own hash slot), sent together: all held, or the holds taken given back
   * unspent and the first spent owner named. A request that meets a hold
   * about to be given back may be refused early, never admitted late.
   */
  private async holdMany(key: KeyRecord, estimate: number, settled: number, budgets: BudgetClaim): Promise<QuotaHold> {
    const { groups, periodStarts } = requestCounters(key, estimate, settled, budgets);
    const id = holdId();
    const now = Date.now();
    const expiry = now + (this.options.holdTtlMs ?? HOLD_TTL_MS);
    const answers = await Promise.allSettled(groups.map((group) => this.scripts.switchyardMultiHold(group.keys.length, ...group.keys, now, id, expiry, IDLE_TTL_SECONDS, ...group.args)));
    const refused = answers.findIndex((answer) => answer.status === 'rejected' || answer.value !== 0);
    if (refused >= 0) {
      // Whatever was taken goes back before the refusal is told.
      const taken = groups.filter((_, index) => {
        const answer = answers[index]!;
        return answer.status === 'fulfilled' && answer.value === 0;
      });
      await this.releaseGroups(taken, id, () => 0);
      const failed = answers.find((answer) => answer.status === 'rejected');
      if (failed) return this.unreachable(failed.reason, key, estimate, settled, budgets);
      const owner = groups[refused]!.owner;
      throw owner ? budgetExhausted(owner, budgets.now) : exhausted();
    }
    let released = false;
    return {
      recordsSpend: false,
      budgets: budgets.limits,
      periodStarts,
      release: async (cost, tokens = 0) => {
        if (released) return;
        released = true;
        await this.releaseGroups(groups, id, (unit) => (unit === 'usd' ? cost : tokens));
      },
    };
  }

  /** Ends hold `id` on each group, adding the amount of each counter's unit; a failure is told and its holds expire. */
  private async releaseGroups(groups: readonly CounterGroup[], id: string, amount: (unit: CounterUnit) => number): Promise<void> {
    await Promise.all(
      groups.map((group) =>
        this.scripts.switchyardMultiRelease(group.keys.length, ...group.keys, id, IDLE_TTL_SECONDS, ...group.units.map(amount)).catch((error: unknown) => {
          this.options.onError?.(error);
        }),
      ),
    );
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
    await this.adjustCounter(keyQuotaKeys(keyId)[0], amount);
  }

  /** Each budget's counter of that period moved by the amount (a refund takes it off); a counter not seeded yet is left to its seed. */
  async adjustBudgets(adjustments: readonly BudgetAdjustment[]): Promise<void> {
    const moves: Promise<void>[] = [];
    for (const { limit, periodStart, usd, tokens } of adjustments) {
      const { id, amountUsd, tokens: tokenLimit } = limit.record;
      if (amountUsd !== null && usd !== 0) moves.push(this.adjustCounter(budgetKeys(id, periodStart, 'usd')[0], usd));
      if (tokenLimit !== null && tokens !== 0) moves.push(this.adjustCounter(budgetKeys(id, periodStart, 'tokens')[0], tokens));
    }
    await Promise.all(moves);
  }

  /** One counter's settled spend moved, a key of its own: one slot per call. */
  private async adjustCounter(spentKey: string, amount: number): Promise<void> {
    try {
      await this.scripts.switchyardQuotaAdjust(spentKey, amount);
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
