/** The token cache the cloud channels share: one fetch per credential at a time, a fresh token handed out as a value, a refresh behind a still valid one. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenCache } from '../../src/upstreams/token-cache.js';

afterEach(() => vi.useRealTimers());

describe('TokenCache', () => {
  it('fetches once for concurrent requests, then hands the token out as a value', async () => {
    const cache = new TokenCache<string>();
    const fetch = vi.fn(async () => ({ value: 'token-1', expiresAt: Date.now() + 3_600_000 }));
    const [a, b] = [cache.get('key', fetch), cache.get('key', fetch)];
    expect(a).toBeInstanceOf(Promise);
    expect(await a).toBe('token-1');
    expect(await b).toBe('token-1');
    expect(cache.get('key', fetch)).toBe('token-1');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('serves a token inside its refresh margin while one refresh runs, and fetches anew once it expired', async () => {
    vi.useFakeTimers({ now: 0 });
    const cache = new TokenCache<string>();
    let n = 0;
    const fetch = vi.fn(async () => ({ value: `token-${++n}`, expiresAt: Date.now() + 1000 }));
    expect(await cache.get('key', fetch)).toBe('token-1');
    vi.setSystemTime(800); // past three quarters of its life, not expired
    expect(cache.get('key', fetch)).toBe('token-1');
    expect(cache.get('key', fetch)).toBe('token-1');
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    await Promise.resolve();
    expect(cache.get('key', fetch)).toBe('token-2');
    vi.setSystemTime(5000);
    expect(await cache.get('key', fetch)).toBe('token-3');
  });

  it('rejects every waiting request when a fetch fails, and tries again on the next', async () => {
    const cache = new TokenCache<string>();
    const fetch = vi
      .fn()
      .mockRejectedValueOnce(new Error('refused'))
      .mockResolvedValueOnce({ value: 'token', expiresAt: Date.now() + 3_600_000 });
    const waiting = [cache.get('key', fetch), cache.get('key', fetch)];
    await expect(waiting[0]).rejects.toThrow('refused');
    await expect(waiting[1]).rejects.toThrow('refused');
    expect(await cache.get('key', fetch)).toBe('token');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('forgets the first credential it remembered when full', async () => {
    const cache = new TokenCache<string>(2);
    const fetch = vi.fn(async () => ({ value: 'token', expiresAt: Date.now() + 3_600_000 }));
    for (const key of ['a', 'b', 'c']) await cache.get(key, fetch);
    expect(cache.get('b', fetch)).toBe('token');
    expect(cache.get('a', fetch)).toBeInstanceOf(Promise);
  });
});
