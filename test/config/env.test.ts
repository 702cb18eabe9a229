/** Settings from the environment (src/config/env.ts): the bounds on upstream answers and on their silence. */
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';

const MiB = 1024 * 1024;

describe('upstream answer bounds', () => {
  it('default to 32 MiB per answer, 256 MiB per stream and 32 MiB per event', () => {
    const settings = settingsFromEnv({});
    expect(settings.maxUpstreamBodyBytes).toBe(32 * MiB);
    expect(settings.maxUpstreamStreamBytes).toBe(256 * MiB);
    expect(settings.maxUpstreamEventBytes).toBe(32 * MiB);
  });

  it('are read from SWITCHYARD_MAX_UPSTREAM_*_BYTES, and 0 or a word is refused', () => {
    const settings = settingsFromEnv({
      SWITCHYARD_MAX_UPSTREAM_BODY_BYTES: '1000',
      SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES: '2000',
      SWITCHYARD_MAX_UPSTREAM_EVENT_BYTES: '300',
    });
    expect([settings.maxUpstreamBodyBytes, settings.maxUpstreamStreamBytes, settings.maxUpstreamEventBytes]).toEqual([1000, 2000, 300]);
    expect(() => settingsFromEnv({ SWITCHYARD_MAX_UPSTREAM_BODY_BYTES: '0' })).toThrow('must be a positive integer');
    expect(() => settingsFromEnv({ SWITCHYARD_MAX_UPSTREAM_STREAM_BYTES: 'lots' })).toThrow('must be a non-negative integer');
  });
});

describe('upstream idle timeout', () => {
  it('defaults to five minutes, is read from SWITCHYARD_UPSTREAM_IDLE_MS, and below 100 ms is refused', () => {
    expect(settingsFromEnv({}).upstreamIdleMs).toBe(300_000);
    expect(settingsFromEnv({ SWITCHYARD_UPSTREAM_IDLE_MS: '2500' }).upstreamIdleMs).toBe(2_500);
    // Refused, not raised: a 0 meant as "never" must not quietly become 100 ms.
    expect(() => settingsFromEnv({ SWITCHYARD_UPSTREAM_IDLE_MS: '0' })).toThrow('SWITCHYARD_UPSTREAM_IDLE_MS');
    expect(() => settingsFromEnv({ SWITCHYARD_UPSTREAM_IDLE_MS: '99' })).toThrow('SWITCHYARD_UPSTREAM_IDLE_MS');
  });
});
