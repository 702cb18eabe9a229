import { describe, expect, it } from 'vitest';
import { servesModel, upstreamModelFor } from '../../src/core/channel.js';
import { orderCandidates } from '../../src/routing/select.js';
import type { Channel } from '../../src/core/channel.js';

function channel(name: string, overrides: Partial<Channel> = {}): Channel {
  return { id: name, name, type: 'simulator', baseUrl: '', apiKeys: [], models: ['*'], modelMapping: {}, priority: 0, weight: 1, enabled: true, settings: {}, ...overrides };
}

/** A repeatable pseudo-random sequence. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const healthy = () => true;

describe('channel selection', () => {
  it('matches names, `*`, prefix patterns and mapping keys', () => {
    expect(servesModel(channel('a', { models: ['gpt-4o'] }), 'gpt-4o')).toBe(true);
    expect(servesModel(channel('a', { models: ['claude-*'] }), 'claude-sonnet')).toBe(true);
    expect(servesModel(channel('a', { models: ['claude-*'] }), 'gpt-4o')).toBe(false);
    const mapped = channel('a', { models: [], modelMapping: { alias: 'real-name' } });
    expect(servesModel(mapped, 'alias')).toBe(true);
    expect(upstreamModelFor(mapped, 'alias')).toBe('real-name');
    expect(upstreamModelFor(mapped, 'other')).toBe('other');
  });

  it('tries higher priorities first and skips disabled channels', () => {
    const order = orderCandidates([channel('low', { priority: 1 }), channel('off', { priority: 9, enabled: false }), channel('high', { priority: 5 })], 'm', { isHealthy: healthy });
    expect(order.map((c) => c.name)).toEqual(['high', 'low']);
  });

  it('shares traffic within a priority by weight', () => {
    const channels = [channel('heavy', { weight: 3 }), channel('light', { weight: 1 })];
    const random = seeded(42);
    const firsts = { heavy: 0, light: 0 };
    for (let i = 0; i < 4000; i++) firsts[orderCandidates(channels, 'm', { isHealthy: healthy, random })[0].name as 'heavy']++;
    expect(firsts.heavy / 4000).toBeGreaterThan(0.7);
    expect(firsts.heavy / 4000).toBeLessThan(0.8);
  });

  it('puts cooling channels last, still reachable', () => {
    const order = orderCandidates([channel('cool', { priority: 9 }), channel('ok', { priority: 1 })], 'm', {
      isHealthy: (c) => c.name !== 'cool',
    });
    expect(order.map((c) => c.name)).toEqual(['ok', 'cool']);
  });
});
