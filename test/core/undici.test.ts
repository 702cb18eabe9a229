/**
 * undici is loaded on first use. A bundled dynamic import of a CommonJS
 * module yields only `default`; the loader must still hand out the exports.
 */
import { describe, expect, it, vi } from 'vitest';

describe('loadUndici', () => {
  it('gives undici’s exports when the namespace has them by name', async () => {
    const { loadUndici } = await import('../../src/core/undici.js');
    const undici = await loadUndici();
    expect(typeof undici.Agent).toBe('function');
    expect(typeof undici.request).toBe('function');
    expect(await loadUndici()).toBe(undici);
  });

  it('gives undici’s exports when the namespace has only a default (as in the bundle)', async () => {
    vi.resetModules();
    const real = await vi.importActual<typeof import('undici')>('undici');
    vi.doMock('undici', () => ({ default: { Agent: real.Agent, request: real.request } }));
    try {
      const { loadUndici } = await import('../../src/core/undici.js');
      const undici = await loadUndici();
      expect(undici.Agent).toBe(real.Agent);
      expect(undici.request).toBe(real.request);
    } finally {
      vi.doUnmock('undici');
      vi.resetModules();
    }
  });
});
