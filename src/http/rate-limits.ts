/**
 * Per-key requests-per-minute and tokens-per-minute limits. Counters live in
 * memory on a single instance, or in Redis when SWITCHYARD_REDIS_URL is set so
 * that many instances share them. While Redis cannot be reached, the outage
 * policy decides: `closed` refuses limited keys (503), `open` counts on this
 * instance alone and warns.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract, RateLimiterRes as LimiterState } from 'rate-limiter-flexible';
// The package index loads every storage backend it supports; take only the two used here.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { RedisOutagePolicy } from '../config/env.js';
import { GatewayError } from '../core/errors.js';
import type { KeyRecord } from '../storage/types.js';

type LimiterKind = 'rpm' | 'tpm';

export interface RateLimitOptions {
  outage?: RedisOutagePolicy;
  /** Told when Redis fails and the `open` policy counts locally; called at most once a minute. */
  onOutage?: (error: unknown) => void;
}

const OUTAGE_WARNING_INTERVAL_MS = 60_000;

export class RateLimits {
  private readonly shared = new Map<string, RateLimiterAbstract>();
  private readonly local = new Map<string, RateLimiterAbstract>();
  private lastWarning = 0;

  constructor(
    private readonly redis?: Redis,
    private readonly options: RateLimitOptions = {},
  ) {}

  /**
   * Counts one request against the key's RPM, and checks its TPM budget is not
   * spent. A key with neither limit has nothing to wait for: undefined, not a
   * promise (the common case costs no promise and no turn of the microtask queue).
   */
  admit(key: KeyRecord): Promise<void> | undefined {
    return key.rpm === null && key.tpm === null ? undefined : this.admitLimited(key);
  }

  private async admitLimited(key: KeyRecord): Promise<void> {
    if (key.rpm !== null) {
      try {
        await this.run('rpm', key.rpm, (limiter) => limiter.consume(key.id, 1));
      } catch (error) {
        throw limited(error, `rate limit of ${key.rpm} requests per minute exceeded`);
      }
    }
    if (key.tpm !== null) {
      const tpm = key.tpm;
      let state: LimiterState | null;
      try {
        state = await this.run('tpm', tpm, (limiter) => limiter.get(key.id));
      } catch (error) {
        throw limited(error, `rate limit of ${tpm} tokens per minute exceeded`);
      }
      if (state && state.consumedPoints >= tpm) throw limited(state, `rate limit of ${tpm} tokens per minute exceeded`);
    }
  }

  /** Adds the tokens a finished request used to the key's TPM window; undefined when there is nothing to add. */
  recordTokens(key: KeyRecord, tokens: number): Promise<unknown> | undefined {
    if (key.tpm === null || tokens <= 0) return undefined;
    return this.run('tpm', key.tpm, (limiter) => limiter.penalty(key.id, tokens));
  }

  /** Runs a counter step on the shared store; on a store failure, per the outage policy. */
  private async run<T>(kind: LimiterKind, points: number, step: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (!this.redis) return step(this.limiter(this.local, kind, points, false));
    try {
      return await step(this.limiter(this.shared, kind, points, true));
    } catch (error) {
      if (error instanceof RateLimiterRes || this.options.outage !== 'open') throw error;
      this.warn(error);
      return step(this.limiter(this.local, kind, points, false));
    }
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < OUTAGE_WARNING_INTERVAL_MS) return;
    this.lastWarning = now;
    this.options.onOutage?.(error);
  }

  private limiter(cache: Map<string, RateLimiterAbstract>, kind: LimiterKind, points: number, shared: boolean): RateLimiterAbstract {
    const name = `${kind}:${points}`;
    let limiter = cache.get(name);
    if (!limiter) {
      const options = { points, duration: 60, keyPrefix: `switchyard:${kind}:${points}` };
      limiter = shared ? new RateLimiterRedis({ ...options, storeClient: this.redis }) : new RateLimiterMemory(options);
      cache.set(name, limiter);
    }
    return limiter;
  }
}

/** What a key with limits is told while the shared counters cannot be reached (SWITCHYARD_REDIS_OUTAGE=closed). */
export const STORE_AWAY = "the gateway cannot reach its rate-limit store, so this key's rate limits cannot be checked; retry shortly";

function limited(cause: unknown, message: string): GatewayError {
  if (!(cause instanceof RateLimiterRes)) {
    // The counter store failed (Redis down) under the `closed` policy: refuse rather than admit unlimited traffic.
    return new GatewayError('unavailable', STORE_AWAY, { cause, retryAfterSeconds: 5 });
  }
  return new GatewayError('rate_limited', message, {
    retryAfterSeconds: Math.max(1, Math.ceil(cause.msBeforeNext / 1000)),
  });
}
