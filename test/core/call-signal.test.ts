/**
 * The request's abort signal: listeners run once, on the first abort only,
 * and can be removed; undici takes it like an AbortSignal, so a client that
 * leaves cancels the upstream call in flight.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { CallAbort } from '../../src/core/call-signal.js';

describe('call abort', () => {
  it('runs each listener once, on the first abort, with its reason', () => {
    const abort = new CallAbort();
    const heard: unknown[] = [];
    const kept = () => heard.push(abort.signal.reason);
    const removed = () => heard.push('removed');
    abort.signal.addEventListener('abort', kept, { once: true });
    abort.signal.addEventListener('abort', removed);
    abort.signal.removeEventListener('abort', removed);
    expect(abort.signal.aborted).toBe(false);
    expect(() => abort.signal.throwIfAborted()).not.toThrow();
    abort.abort(new Error('client left'));
    abort.abort(new Error('again'));
    expect(abort.signal.aborted).toBe(true);
    expect(heard).toEqual([new Error('client left')]);
    expect(() => abort.signal.throwIfAborted()).toThrow('client left');
  });

  it('defaults its reason to an AbortError, as AbortController does', () => {
    const abort = new CallAbort();
    abort.abort();
    expect((abort.signal.reason as DOMException).name).toBe('AbortError');
  });

  it('cancels an undici request waiting for its answer', async () => {
    let closed!: () => void;
    const upstreamSawClose = new Promise<void>((resolve) => (closed = resolve));
    const server = http.createServer((req) => req.socket.once('close', closed));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const abort = new CallAbort();
      const pending = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { signal: abort.signal as never });
      setTimeout(() => abort.abort(new Error('client left')), 50);
      await expect(pending).rejects.toThrow('client left');
      await upstreamSawClose;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
