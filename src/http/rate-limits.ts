/**
 * Per-key requests-per-minute and tokens-per-minute limits. Counters live in
 * memory on a single instance, or in Redis when SWITCHYARD_REDIS_URL is set so
 * that many instances share them.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
// The package index loads every storage backend it supports; take only the two used here.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { GatewayError } from '../core/errors.js';
import type { KeyRecord } from '../storage/types.js';

type LimiterKind = 'rpm' | 'tpm';

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis?: Redis) {}

  /** Counts one request against the key's RPM, and checks its TPM budget is not spent. */
  async admit(key: KeyRecord): Promise<void> {
    if (key.rpm !== null) {
      try {
        await this.limiter('rpm', key.rpm).consume(key.id, 1);
      } catch (error) {
        throw limited(error, `rate limit of ${key.rpm} requests per minute exceeded`);
      }
    }
    if (key.tpm !== null) {
      const state = await this.limiter('tpm', key.tpm).get(key.id);
      if (state && state.consumedPoints >= key.tpm) {
        throw limited(state, `rate limit of ${key.tpm} tokens per minute exceeded`);
      }
    }
  }

  /** Adds the tokens a finished request used to the key's TPM window. */
  async recordTokens(key: KeyRecord, tokens: number): Promise<void> {
    if (key.tpm === null || tokens <= 0) return;
    await this.limiter('tpm', key.tpm).penalty(key.id, tokens);
  }

  private limiter(kind: LimiterKind, points: number): RateLimiterAbstract {
    const name = `${kind}:${points}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      const options = { points, duration: 60, keyPrefix: `switchyard:${kind}:${points}` };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis })
        : new RateLimiterMemory(options);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }
}

function limited(cause: unknown, message: string): GatewayError {
  if (!(cause instanceof RateLimiterRes)) {
    // The counter store failed (Redis down): refuse safely rather than admit unlimited traffic.
    return new GatewayError('unavailable', 'rate-limit store unavailable', { cause });
  }
  return new GatewayError('rate_limited', message, {
    retryAfterSeconds: Math.max(1, Math.ceil(cause.msBeforeNext / 1000)),
  });
}
