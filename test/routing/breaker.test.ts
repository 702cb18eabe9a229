/**
 * The circuit breaker per channel and per upstream key: what opens it, the
 * half-open probe, and sharing openings between instances through Redis.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { GatewayError } from '../../src/core/errors.js';
import { shareBreakers } from '../../src/routing/breaker-share.js';
import { ChannelHealth } from '../../src/routing/health.js';

const channel = (apiKeys: string[] = ['sk-one']) => ({ id: `ch_${randomBytes(4).toString('hex')}`, apiKeys }) as unknown as Channel;
const upstreamError = (status: number, retryAfterSeconds?: number) => new GatewayError('unavailable', `upstream answered ${status}`, { upstreamStatus: status, retryAfterSeconds });

describe('ChannelHealth', () => {
  it('opens a channel after five consecutive failures, then lets one probe through when the cool-down ends', async () => {
    const health = new ChannelHealth(40);
    const ch = channel([]);
    for (let i = 0; i < 4; i++) health.failed(ch, upstreamError(500));
    expect(health.isHealthy(ch)).toBe(true);
    health.failed(ch, upstreamError(500));
    expect(health.isHealthy(ch)).toBe(false);
    expect(health.snapshot(ch)).toMatchObject({ state: 'open', consecutiveFailures: 5 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(health.snapshot(ch).state).toBe('half_open');
    expect(health.isHealthy(ch)).toBe(true); // the probe
    expect(health.isHealthy(ch)).toBe(false); // others wait for its outcome
    health.failed(ch, upstreamError(502));
    expect(health.snapshot(ch)).toMatchObject({ state: 'open', reason: 'probe failed' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(health.isHealthy(ch)).toBe(true);
    health.succeeded(ch);
    expect(health.snapshot(ch).state).toBe('closed');
    expect(health.isHealthy(ch)).toBe(true);
  });

  it('opens on an error rate: half of at least ten recent outcomes', () => {
    const health = new ChannelHealth(60_000);
    const ch = channel([]);
    for (let i = 0; i < 5; i++) {
      health.succeeded(ch);
      health.failed(ch, upstreamError(503));
    }
    expect(health.snapshot(ch).state).toBe('open');
  });

  it('opens a refused key at once and rotates to the others; a 429 benches its key for the retry-after', () => {
    const health = new ChannelHealth(60_000);
    const ch = channel(['sk-a', 'sk-b', 'sk-c']);
    health.failed(ch, upstreamError(401), 'sk-a');
    health.failed(ch, upstreamError(429, 120), 'sk-b');
    const handedOut = new Set(Array.from({ length: 6 }, () => health.nextKey(ch)));
    expect([...handedOut]).toEqual(['sk-c']);
    expect(health.isHealthy(ch)).toBe(true);
    const snapshot = health.snapshot(ch);
    expect(snapshot.state).toBe('closed');
    expect(snapshot.keys.map((key) => key.state)).toEqual(['open', 'open', 'closed']);
    expect(snapshot.keys[1].openUntil! - Date.now()).toBeGreaterThan(100_000);
    expect(JSON.stringify(snapshot)).not.toContain('sk-');
    health.failed(ch, upstreamError(403), 'sk-c');
    expect(health.isHealthy(ch)).toBe(false);
  });

  it('opens a one-key channel whose credentials are refused', () => {
    const health = new ChannelHealth(60_000);
    const ch = channel(['sk-only']);
    health.failed(ch, upstreamError(401), 'sk-only');
    expect(health.isHealthy(ch)).toBe(false);
  });
});

describe('breakers shared through Redis', () => {
  const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  afterAll(() => redis.quit());

  it('an opening on one instance benches the channel on another at once, and a late starter reads it', async () => {
    const namespace = `test_${randomBytes(4).toString('hex')}`;
    const ch = channel(['sk-x']);
    const first = new ChannelHealth(60_000);
    const second = new ChannelHealth(60_000);
    const shares = [await shareBreakers(first, redis, namespace, () => {}), await shareBreakers(second, redis, namespace, () => {})];
    try {
      first.failed(ch, upstreamError(401), 'sk-x');
      for (let i = 0; i < 100 && second.isHealthy(ch); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(second.isHealthy(ch)).toBe(false);
      const late = new ChannelHealth(60_000);
      shares.push(await shareBreakers(late, redis, namespace, () => {}));
      expect(late.isHealthy(ch)).toBe(false);
      // The operator's reset closes it everywhere.
      first.reset(ch.id);
      for (let i = 0; i < 100 && !second.isHealthy(ch); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(second.isHealthy(ch)).toBe(true);
    } finally {
      for (const share of shares) share.close();
      await redis.del(`switchyard:breakers:${namespace}`);
    }
  });
});
