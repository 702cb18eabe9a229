/**
 * Client keys end to end: quota, RPM and TPM limits, model and address
 * restrictions, expiry, and the error each one produces in the Messages shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;

const KEYS = {
  quota: 'sk-test-quota-000000',
  rpm: 'sk-test-rpm-0000000',
  tpm: 'sk-test-tpm-0000000',
  models: 'sk-test-models-00000',
  family: 'sk-test-family-00000',
  ips: 'sk-test-ips-0000000',
  expired: 'sk-test-expired-0000',
  free: 'sk-test-free-000000',
};

async function send(key: string, model = 'sim-model', extraHeaders: Record<string, string> = {}) {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...extraHeaders },
    body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'count my tokens' }] }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

beforeAll(async () => {
  gw = await startGateway({
    config: {
      keys: [
        { name: 'quota', key: KEYS.quota, quota: 0.01 },
        { name: 'rpm', key: KEYS.rpm, rpm: 2 },
        { name: 'tpm', key: KEYS.tpm, tpm: 30 },
        { name: 'models', key: KEYS.models, models: ['allowed-model'] },
        { name: 'family', key: KEYS.family, models: ['claude-*'] },
        { name: 'ips', key: KEYS.ips, allowIps: ['10.0.0.0/8'] },
        { name: 'expired', key: KEYS.expired, expiresAt: '2020-01-01T00:00:00Z' },
        { name: 'free', key: KEYS.free },
      ],
      // $1000 per million tokens: every request of ~80 tokens costs ~$0.08.
      prices: { '*': { input: 1000, output: 1000 } },
    },
  });
});
afterAll(async () => gw?.close());

describe('client keys', () => {
  it('answers 403 permission_error once the quota is spent', async () => {
    const first = await send(KEYS.quota);
    expect(first.status).toBe(200);
    const second = await send(KEYS.quota);
    expect(second.status).toBe(403);
    expect(second.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(second.body.error.message).toMatch(/quota/);
  });

  it('answers 429 with retry-after over the requests-per-minute limit', async () => {
    expect((await send(KEYS.rpm)).status).toBe(200);
    expect((await send(KEYS.rpm)).status).toBe(200);
    const third = await send(KEYS.rpm);
    expect(third.status).toBe(429);
    expect(third.body.error.type).toBe('rate_limit_error');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers 429 once the tokens-per-minute budget is used', async () => {
    expect((await send(KEYS.tpm)).status).toBe(200);
    const second = await send(KEYS.tpm);
    expect(second.status).toBe(429);
    expect(second.body.error.message).toMatch(/tokens per minute/);
  });

  it('restricts models, addresses and expiry', async () => {
    expect((await send(KEYS.models, 'allowed-model')).status).toBe(200);
    const other = await send(KEYS.models, 'other-model');
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain('other-model');
    // The README's `models: ["claude-*"]`: a prefix pattern, as for channels.
    expect((await send(KEYS.family, 'claude-sonnet-4-5')).status).toBe(200);
    expect((await send(KEYS.family, 'gpt-4o')).status).toBe(403);

    const fromLoopback = await send(KEYS.ips);
    expect(fromLoopback.status).toBe(403);

    const expired = await send(KEYS.expired);
    expect(expired.status).toBe(401);
    expect(expired.body.error.type).toBe('authentication_error');
  });

  it('requires the version header and a credential', async () => {
    const noVersion = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.free, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(noVersion.status).toBe(400);
    expect(((await noVersion.json()) as any).error.message).toContain('anthropic-version');

    const noKey = await fetch(`${gw.url}/v1/messages`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('request-id')).toMatch(/^req_/);
  });

  it('answers 413 for an oversized body and 400 for broken JSON, in the family shape', async () => {
    const broken = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.free, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: '{"model": ',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).type).toBe('error');
  });

  it('records usage and cost per key, readable through the admin API', async () => {
    const keys = await gw.admin('GET', '/keys');
    const quotaKey = keys.body.data.find((key: any) => key.name === 'quota');
    expect(quotaKey.used).toBeGreaterThan(0.01);
    expect(JSON.stringify(keys.body)).not.toContain(KEYS.quota);
    expect(JSON.stringify(keys.body)).not.toContain('keyHash');

    const usage = await gw.admin('GET', `/usage?keyId=${quotaKey.id}`);
    expect(usage.body.data[0]).toMatchObject({ keyId: quotaKey.id, model: 'sim-model', requests: 2 });

    const logs = await gw.admin('GET', `/logs?keyId=${quotaKey.id}`);
    expect(logs.body.data).toHaveLength(2);
    const ok = logs.body.data.find((row: any) => row.httpStatus === 200);
    expect(ok).toMatchObject({ family: 'messages', triedChannels: ['builtin-simulator'], estimated: false });
    expect(ok.inputTokens).toBeGreaterThan(0);
  });
});

describe('admin API', () => {
  it('refuses requests without the admin key', async () => {
    const response = await fetch(`${gw.url}/admin/keys`);
    expect(response.status).toBe(401);
  });

  it('creates, uses, updates and disables a key', async () => {
    const created = await gw.admin('POST', '/keys', { name: 'made-by-admin', rpm: 100 });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sk-sy-/);
    expect((await send(created.body.key)).status).toBe(200);

    const patched = await gw.admin('PATCH', `/keys/${created.body.id}`, { quota: 5 });
    expect(patched.body.quota).toBe(5);

    await gw.admin('DELETE', `/keys/${created.body.id}`);
    expect((await send(created.body.key)).status).toBe(401);

    const invalid = await gw.admin('POST', '/keys', { name: '' });
    expect(invalid.status).toBe(400);
  });

  it('creates channels without ever returning their credentials; the built-in simulator serves the other models', async () => {
    const created = await gw.admin('POST', '/channels', {
      name: 'sim-only',
      type: 'simulator',
      apiKey: 'upstream-secret-value',
      models: ['served-model'],
    });
    expect(created.status).toBe(201);
    expect(created.body.apiKeyCount).toBe(1);
    const listed = await gw.admin('GET', '/channels');
    expect(JSON.stringify(listed.body)).not.toContain('upstream-secret-value');
    expect(JSON.stringify(created.body)).not.toContain('upstream-secret-value');

    expect((await send(KEYS.free, 'served-model')).status).toBe(200);
    expect((await send(KEYS.free, 'unknown-model')).status).toBe(200);
    await gw.gateway.ctx.recorder.flush();
    const logs = (await gw.admin('GET', '/logs?limit=2')).body.data;
    expect(logs.map((row: any) => [row.model, row.triedChannels])).toEqual([
      ['unknown-model', ['builtin-simulator']],
      ['served-model', ['sim-only']],
    ]);

    await gw.admin('DELETE', `/channels/${created.body.id}`);
    expect((await send(KEYS.free, 'unknown-model')).status).toBe(200);
  });

  it('with simulator: false, only configured channels serve', async () => {
    const strict = await startGateway({ config: { simulator: false, keys: [{ name: 'free', key: KEYS.free }] } });
    const sendStrict = (model: string) =>
      fetch(`${strict.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': KEYS.free, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    try {
      await strict.admin('POST', '/channels', { name: 'sim-only', type: 'simulator', models: ['served-model'] });
      expect((await sendStrict('served-model')).status).toBe(200);
      const unknown = await sendStrict('unknown-model');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.type).toBe('not_found_error');
      expect(unknown.body.error.message).toContain('unknown-model');
    } finally {
      await strict.close();
    }
  });

  it('reports health and readiness', async () => {
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as any).storage).toBe('sqlite');
  });
});
