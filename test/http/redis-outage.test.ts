/**
 * The Redis outage policy: with the shared counter store unreachable, `closed`
 * refuses a limited key with a 503 and `open` counts on this instance alone,
 * still enforcing the limit there and warning (once, not per request).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/errors.js';
import { RateLimits, STORE_AWAY } from '../../src/http/rate-limits.js';
import type { KeyRecord } from '../../src/storage/types.js';

// Nothing listens on port 1: every command fails after its retries.
const unreachable = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, retryStrategy: () => 20, lazyConnect: true });
// Its failed connections are expected here; without a listener ioredis prints each one.
unreachable.on('error', () => {});
afterAll(() => unreachable.disconnect());

const key = { id: 'key_outage', rpm: 2, tpm: null } as unknown as KeyRecord;

describe('while Redis cannot be reached', () => {
  it('the closed policy (the default) refuses a limited key with a 503 naming the store', async () => {
    const limits = new RateLimits(unreachable);
    const refusal = await limits.admit(key)!.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ kind: 'unavailable', message: STORE_AWAY, status: 503 });
  });

  it('the open policy counts on this instance, still enforcing the limit, and warns once', async () => {
    const warnings: unknown[] = [];
    const limits = new RateLimits(unreachable, { outage: 'open', onOutage: (error) => warnings.push(error) });
    await limits.admit(key);
    await limits.admit(key);
    const third = await limits.admit(key)!.catch((error: unknown) => error);
    expect(third).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(warnings).toHaveLength(1);
  });

  it('a key without limits never touches Redis, and has nothing to wait for', () => {
    const limits = new RateLimits(unreachable);
    expect(limits.admit({ ...key, rpm: null } as KeyRecord)).toBeUndefined();
    expect(limits.recordTokens({ ...key, rpm: null } as KeyRecord, 100)).toBeUndefined();
  });
});
