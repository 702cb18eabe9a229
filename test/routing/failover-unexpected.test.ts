/**
 * An attempt that throws instead of failing as an upstream does (a request
 * that cannot be built from its channel: `new URL` on a bad base URL) is that
 * channel's failure: reported once, counted by its breaker, and the next
 * channel is tried; when none is left, the client's error carries no runtime text.
 */
import { describe, expect, it } from 'vitest';
import type { Attempt } from '../../src/core/attempt.js';
import type { Channel } from '../../src/core/channel.js';
import { GatewayError } from '../../src/core/errors.js';
import { withFailover } from '../../src/routing/failover.js';
import { ChannelHealth } from '../../src/routing/health.js';

const channel = (name: string) => ({ id: name, name, type: 'openai-chat', baseUrl: '', apiKeys: [], models: ['*'], modelMapping: {}, priority: 0, weight: 1, enabled: true, settings: {} }) as Channel;

describe('an attempt that throws', () => {
  it('is a failed attempt of its channel; the next channel serves', async () => {
    const reported: Array<[string, unknown]> = [];
    const attempts: Attempt[] = [];
    const health = new ChannelHealth(60_000);
    const bad = channel('bad');
    const result = await withFailover(
      [bad, channel('good')],
      { model: 'm', maxAttempts: 3, health, attempts, onUnexpected: (failed, error) => reported.push([failed.name, error]) },
      async (target) => {
        if (target.channel.name === 'bad') new URL('/chat/completions');
        return target.channel.name;
      },
    );
    expect(result.value).toBe('good');
    expect(reported.map(([name, error]) => [name, (error as Error).name])).toEqual([['bad', 'TypeError']]);
    expect(attempts.map((attempt) => [attempt.channel, attempt.errorKind])).toEqual([
      ['bad', 'upstream_error'],
      ['good', null],
    ]);
    expect(health.snapshot(bad)).toMatchObject({ consecutiveFailures: 1 });
  });

  it('an internal error of the gateway about a channel (its settings) is that channel failing too', async () => {
    const result = await withFailover([channel('bad'), channel('good')], { model: 'm', maxAttempts: 3, health: new ChannelHealth(60_000), attempts: [] }, async (target) => {
      if (target.channel.name === 'bad') throw new GatewayError('internal', 'simulator channel bad: setting latencyMs must be a number');
      return target.channel.name;
    });
    expect(result.value).toBe('good');
  });

  it('alone, it reaches the client as a 502 without the runtime text', async () => {
    const failing = withFailover([channel('bad')], { model: 'm', maxAttempts: 3, health: new ChannelHealth(60_000), attempts: [] }, async () => {
      new URL('');
    });
    const error = (await failing.catch((thrown: unknown) => thrown)) as GatewayError;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(502);
    expect(error.message).not.toMatch(/TypeError|Invalid URL/);
  });

  it('a client error (400) is still not retried', async () => {
    let calls = 0;
    const failing = withFailover([channel('a'), channel('b')], { model: 'm', maxAttempts: 3, health: new ChannelHealth(60_000), attempts: [] }, async () => {
      calls++;
      throw new GatewayError('invalid_request', 'bad field');
    });
    await expect(failing).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
  });
});
