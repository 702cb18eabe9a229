/**
 * undici is loaded on first use, and only its Agent and the dispatcher's
 * `request()` (src/core/undici.ts): these tests hold the files it loads to
 * the locked version, and the loader to the shape a bundled dynamic import
 * of a CommonJS file yields (only `default`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end('pong'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('loadUndici', () => {
  it('gives a working keep-alive Agent with request(), once', async () => {
    const { loadUndici } = await import('../../src/core/undici.js');
    const undici = await loadUndici();
    expect(await loadUndici()).toBe(undici);
    const agent = new undici.Agent({ connections: 1 });
    try {
      const response = await agent.request({ origin: base, path: '/ping', method: 'GET' });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe('pong');
    } finally {
      await agent.close();
    }
  });

  it('does not evaluate undici’s index (fetch, WebSocket, the mocks)', async () => {
    vi.resetModules();
    const index = vi.fn();
    vi.doMock('undici', () => {
      index();
      return {};
    });
    try {
      const { loadUndici } = await import('../../src/core/undici.js');
      await loadUndici();
      expect(index).not.toHaveBeenCalled();
    } finally {
      vi.doUnmock('undici');
      vi.resetModules();
    }
  });

  it('takes the exports from `default` when that is all the namespace has (as in the bundle)', async () => {
    vi.resetModules();
    const Agent = (await vi.importActual<{ default: unknown }>('undici/lib/dispatcher/agent.js')).default;
    vi.doMock('undici/lib/dispatcher/agent.js', () => ({ default: Agent }));
    try {
      const { loadUndici } = await import('../../src/core/undici.js');
      expect((await loadUndici()).Agent).toBe(Agent);
    } finally {
      vi.doUnmock('undici/lib/dispatcher/agent.js');
      vi.resetModules();
    }
  });
});

describe('requestThrough', () => {
  it('sends to the URL’s origin, with its path and query', async () => {
    const { loadUndici, requestThrough } = await import('../../src/core/undici.js');
    const agent = new (await loadUndici()).Agent({ connections: 1 });
    try {
      const response = await requestThrough(agent, `${base}/hook/a?b=1`, { method: 'POST', body: '{}' });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
      expect(seen).toContain('POST /hook/a?b=1');
    } finally {
      await agent.close();
    }
  });
});
