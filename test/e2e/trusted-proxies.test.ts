/**
 * Behind a reverse proxy: X-Forwarded-For names the client only when the
 * peer that sent it is a trusted proxy (SWITCHYARD_TRUSTED_PROXIES, or the
 * config file's `trustedProxies`). The client address then decides a key's
 * `allowIps` and is what the access log and the request log show; from any
 * other peer the header is ignored, so a client cannot forge its address.
 * Requests come from 127.0.0.1, which stands for the proxy.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlace, ENGINES, type Place } from '../support/places.js';
import type { TestGateway } from '../support/gateway.js';

const OFFICE_KEY = 'sk-test-office-000000';
const OPEN_KEY = 'sk-test-open-00000000';
const config = {
  keys: [
    { name: 'office', key: OFFICE_KEY, allowIps: ['203.0.113.0/24', '2001:db8::/32'] },
    { name: 'open', key: OPEN_KEY },
  ],
};

interface Started {
  gw: TestGateway;
  access: Array<Record<string, unknown>>;
}

async function send(gw: TestGateway, forwardedFor?: string, key = OFFICE_KEY) {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
    },
    body: JSON.stringify({ model: 'sim-model', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] }),
  });
  return { status: response.status, requestId: response.headers.get('request-id')!, body: (await response.json()) as any };
}

/** The client address the access log and the request log recorded for a request. */
async function logged(started: Started, requestId: string): Promise<{ access: unknown; requestLog: unknown }> {
  // The access line is written when the response closes; the row when the recorder flushes.
  let line: Record<string, unknown> | undefined;
  for (let i = 0; i < 200 && !line; i++) {
    line = started.access.find((entry) => entry.requestId === requestId);
    if (!line) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await started.gw.gateway.ctx.recorder.flush();
  const rows = (await started.gw.admin('GET', '/logs')).body.data as Array<{ requestId: string; clientIp: string | null }>;
  return { access: line?.clientIp, requestLog: rows.find((row) => row.requestId === requestId)?.clientIp };
}

describe.each(ENGINES)('trusted proxies on %s', (engine) => {
  let place: Place;
  const gateways: TestGateway[] = [];

  async function start(options: { env?: Record<string, string>; config?: Record<string, unknown> }): Promise<Started> {
    const access: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void access.push(JSON.parse(line)) });
    const gw = await place.start({ config: options.config ?? config, env: options.env, logger });
    gateways.push(gw);
    return { gw, access };
  }

  beforeAll(async () => {
    place = await createPlace(engine);
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close();
    await place?.destroy();
  });

  it('from a trusted proxy, the rightmost untrusted X-Forwarded-For entry is the client: allowIps and both logs use it', async () => {
    const started = await start({ env: { SWITCHYARD_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' } });
    // The client, then an inner proxy (trusted) that forwarded to the one connecting.
    const allowed = await send(started.gw, '203.0.113.7, 10.1.2.3');
    expect(allowed.status).toBe(200);
    expect(await logged(started, allowed.requestId)).toEqual({ access: '203.0.113.7', requestLog: '203.0.113.7' });

    const ipv6 = await send(started.gw, '2001:db8::5');
    expect(ipv6.status).toBe(200);

    // A client that writes an allowed address itself: its proxy appends the real one, which decides.
    const forged = await send(started.gw, '203.0.113.7, 198.51.100.9');
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ type: 'error', error: { type: 'permission_error', message: 'API key may not be used from address 198.51.100.9' } });
    expect((await logged(started, forged.requestId)).access).toBe('198.51.100.9');

    // No header: the proxy itself is the client.
    const direct = await send(started.gw);
    expect(direct.status).toBe(403);
    expect((await logged(started, direct.requestId)).access).toBe('127.0.0.1');
  });

  it('from a peer that is not a trusted proxy, X-Forwarded-For is ignored', async () => {
    for (const env of [undefined, { SWITCHYARD_TRUSTED_PROXIES: '10.9.9.9' }]) {
      const started = await start({ env });
      const forged = await send(started.gw, '203.0.113.7');
      expect(forged.status).toBe(403);
      expect(forged.body.error.message).toBe('API key may not be used from address 127.0.0.1');
      const served = await send(started.gw, '203.0.113.7', OPEN_KEY);
      expect(served.status).toBe(200);
      expect(await logged(started, served.requestId)).toEqual({ access: '127.0.0.1', requestLog: '127.0.0.1' });
    }
  });

  it('takes the list from the config file, and SWITCHYARD_TRUSTED_PROXIES wins over it', async () => {
    const fromFile = await start({ config: { ...config, trustedProxies: ['127.0.0.1'] } });
    expect((await send(fromFile.gw, '203.0.113.7')).status).toBe(200);

    const overridden = await start({ config: { ...config, trustedProxies: ['127.0.0.1'] }, env: { SWITCHYARD_TRUSTED_PROXIES: '10.9.9.9' } });
    expect((await send(overridden.gw, '203.0.113.7')).status).toBe(403);
  });
});
