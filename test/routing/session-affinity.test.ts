/**
 * Session pins: bounded (least recently used out first), forgotten after
 * their idle time, shared through a share only on a local miss or a change;
 * the pinned channel first within its priority tier only; the Redis share
 * answers a miss, and never fails a request when Redis is away.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Channel } from '../../src/core/channel.js';
import { pinnedFirst, SessionAffinity, type SessionPin, type SessionShare } from '../../src/routing/session-affinity.js';
import { redisSessionShare } from '../../src/routing/session-share.js';

const pin = (channelId: string, key = 'k'): SessionPin => ({ channelId, key });

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

class RecordingShare implements SessionShare {
  readonly pins = new Map<string, SessionPin>();
  gets = 0;
  sets = 0;
  async get(session: string) {
    this.gets++;
    return this.pins.get(session);
  }
  set(session: string, value: SessionPin) {
    this.sets++;
    this.pins.set(session, value);
  }
}

describe('the pin map', () => {
  it('keeps a pin while the session is used, and forgets it after the idle time', () => {
    const time = clock();
    const affinity = new SessionAffinity({ maxSessions: 10, idleMs: 1_000, now: time.now });
    affinity.served('s', pin('a'));
    time.advance(900);
    expect(affinity.pinned('s')).toEqual({ channelId: 'a', key: 'k', usedAt: expect.any(Number), sharedAt: expect.any(Number) });
    // Each use starts the idle time again.
    time.advance(900);
    expect(affinity.pinned('s')).toMatchObject(pin('a'));
    time.advance(1_001);
    expect(affinity.pinned('s')).toBeUndefined();
    expect(affinity.size).toBe(0);
  });

  it('holds at most maxSessions, forgetting the least recently used first', () => {
    const affinity = new SessionAffinity({ maxSessions: 3, idleMs: 60_000 });
    for (const session of ['a', 'b', 'c']) affinity.served(session, pin(session));
    affinity.pinned('a');
    affinity.served('d', pin('d'));
    expect(affinity.size).toBe(3);
    expect(affinity.pinned('b')).toBeUndefined();
    for (const session of ['a', 'c', 'd']) expect(affinity.pinned(session)).toMatchObject(pin(session));
  });

  it('moves a session to where it was served last', () => {
    const affinity = new SessionAffinity({ maxSessions: 10, idleMs: 60_000 });
    affinity.served('s', pin('a', 'k1'));
    affinity.served('s', pin('b', 'k2'));
    expect(affinity.pinned('s')).toMatchObject(pin('b', 'k2'));
  });

  it('asks the share only on a local miss, and tells it only of a change (or after half the idle time)', async () => {
    const time = clock();
    const share = new RecordingShare();
    const affinity = new SessionAffinity({ maxSessions: 10, idleMs: 1_000, share, now: time.now });
    share.pins.set('elsewhere', pin('c'));
    expect(await affinity.pinned('elsewhere')).toMatchObject(pin('c'));
    expect(affinity.pinned('elsewhere')).toMatchObject(pin('c'));
    expect(share.gets).toBe(1);
    affinity.served('elsewhere', pin('c'));
    expect(share.sets).toBe(0);
    affinity.served('elsewhere', pin('d'));
    expect(share.sets).toBe(1);
    expect(share.pins.get('elsewhere')).toEqual(pin('d'));
    time.advance(600);
    affinity.served('elsewhere', pin('d'));
    expect(share.sets).toBe(2);
    expect(await affinity.pinned('unknown')).toBeUndefined();
  });
});

function channel(id: string, priority = 0): Channel {
  return { id, name: id, type: 'openai-chat', baseUrl: 'http://x/v1', apiKeys: ['k'], models: ['*'], modelMapping: {}, priority, weight: 1, enabled: true, settings: {} };
}
const ids = (channels: readonly Channel[]) => channels.map((item) => item.id);
const healthy = () => true;

describe('the pinned channel goes first within its tier', () => {
  it('within the top tier it is tried first', () => {
    const ordered = [channel('a', 5), channel('b', 5), channel('c', 5), channel('low', 0)];
    expect(ids(pinnedFirst(ordered, 'c', healthy))).toEqual(['c', 'a', 'b', 'low']);
  });

  it('in a lower tier it leads that tier only: the preferred tier is tried first', () => {
    const ordered = [channel('a', 5), channel('b', 5), channel('x', 0), channel('y', 0)];
    expect(ids(pinnedFirst(ordered, 'y', healthy))).toEqual(['a', 'b', 'y', 'x']);
  });

  it('an unhealthy, absent or already first channel changes nothing', () => {
    const ordered = [channel('a'), channel('b')];
    expect(pinnedFirst(ordered, 'b', () => false)).toBe(ordered);
    expect(pinnedFirst(ordered, 'gone', healthy)).toBe(ordered);
    expect(pinnedFirst(ordered, 'a', healthy)).toBe(ordered);
  });
});

describe('the Redis share', () => {
  const redis = new Redis(process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  afterAll(() => redis.quit());

  it('hands a pin written by one instance to another, and expires it with the idle time', async () => {
    // Pins are neither asked nor written while the client is still connecting.
    await redis.ping();
    const namespace = `test-${randomUUID()}`;
    const errors: unknown[] = [];
    const first = new SessionAffinity({ maxSessions: 10, idleMs: 60_000, share: redisSessionShare(redis, namespace, (error) => errors.push(error)) });
    const second = new SessionAffinity({ maxSessions: 10, idleMs: 60_000, share: redisSessionShare(redis, namespace, (error) => errors.push(error)) });
    first.served('s', pin('channel-1', 'ab12cd34'));
    // The write goes out in the background; a read on the same connection comes after it.
    expect(await redis.get(`switchyard:sessions:${namespace}:s`)).toBe('channel-1 ab12cd34');
    expect(await second.pinned('s')).toEqual(pin('channel-1', 'ab12cd34'));
    expect(await redis.pttl(`switchyard:sessions:${namespace}:s`)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('a Redis that is away answers nothing at once, and no error reaches the request', async () => {
    const away = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    const errors: unknown[] = [];
    const affinity = new SessionAffinity({ maxSessions: 10, idleMs: 60_000, share: redisSessionShare(away, 'away', (error) => errors.push(error)) });
    expect(await affinity.pinned('s')).toBeUndefined();
    affinity.served('s', pin('a'));
    expect(affinity.pinned('s')).toMatchObject(pin('a'));
    away.disconnect();
  });
});
