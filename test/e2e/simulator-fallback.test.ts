/**
 * The first-channel rule: the built-in simulator serves every model and
 * action while no provider's channel is stored (simulator channels beside it
 * come first for the models they list); once one is, in any state, it serves
 * nothing, so it never stands in for a configured channel that fails nor
 * answers in the name of a real model. `simulator: false` in the config file
 * or SWITCHYARD_SIMULATOR=off turns it off even with no channel (the variable
 * wins). simulator-beside-channels.test.ts covers each family's 404.
 */
import { describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { FAST_TASK_ENV } from '../support/places.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { igClient } from '../families/images/support.js';

const KEY = 'sk-simulator-fallback-01';
// The README's first channel: an OpenAI-style server that is not running.
const unreachable = { name: 'vllm', type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-x', models: ['claude-*'] };

async function message(gw: TestGateway, model: string) {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function video(gw: TestGateway) {
  const response = await fetch(`${gw.url}/v1/videos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse', model: 'sora-2', seconds: '1' }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function withGateway(config: Record<string, unknown>, env: Record<string, string>, test: (gw: TestGateway) => Promise<void>) {
  const gw = await startGateway({ config: { keys: [{ name: 'client', key: KEY }], ...config }, env: { ...FAST_TASK_ENV, ...env } });
  try {
    await test(gw);
  } finally {
    await gw.close();
  }
}

describe('built-in simulator as the fallback', () => {
  it('serves every model and action while no channel is configured', async () => {
    await withGateway({}, {}, async (gw) => {
      const other = await message(gw, 'any-model');
      expect(other.status).toBe(200);
      expect(other.body.type).toBe('message');
      const imagine = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a lighthouse' });
      expect(imagine.body.code).toBe(1);
      expect((await video(gw)).status).toBe(201);
      await gw.gateway.ctx.recorder.flush();
      const logs = (await gw.admin('GET', '/logs?model=any-model')).body.data;
      expect(logs[0].triedChannels).toEqual(['builtin-simulator']);
    });
  });

  it('still serves beside simulator channels, after them', async () => {
    await withGateway({ channels: [{ name: 'sim', type: 'simulator', models: ['demo-model'] }] }, {}, async (gw) => {
      expect((await message(gw, 'demo-model')).status).toBe(200);
      expect((await message(gw, 'any-model')).status).toBe(200);
      await gw.gateway.ctx.recorder.flush();
      const tried = Object.fromEntries((await gw.admin('GET', '/logs?limit=20')).body.data.map((row: any) => [row.model, row.triedChannels]));
      expect(tried).toEqual({ 'demo-model': ['sim'], 'any-model': ['builtin-simulator'] });
    });
  });

  it('serves nothing once a provider channel is configured: never in place of the channel that fails, never another model', async () => {
    await withGateway({ channels: [unreachable] }, {}, async (gw) => {
      // The configured channel's models go to it, and its failure is the client's answer.
      const failed = await message(gw, 'claude-sonnet-4-5');
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const other = await message(gw, 'any-model');
      expect(other.status).toBe(404);
      expect(other.body.error.type).toBe('not_found_error');
      const imagine = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a lighthouse' });
      expect(imagine).toMatchObject({ status: 403, body: { code: 24 } });
      expect((await video(gw)).status).toBe(404);

      await gw.gateway.ctx.recorder.flush();
      const logs = (await gw.admin('GET', '/logs?limit=20')).body.data;
      for (const row of logs) expect(row.triedChannels).not.toContain('builtin-simulator');
    });
  });

  it('does not serve the models of a disabled provider channel', async () => {
    await withGateway({ channels: [{ ...unreachable, enabled: false }] }, {}, async (gw) => {
      expect((await message(gw, 'claude-sonnet-4-5')).status).toBe(404);
    });
  });

  it('is off with simulator: false in the config file', async () => {
    await withGateway({ channels: [unreachable], simulator: false }, {}, async (gw) => {
      const other = await message(gw, 'any-model');
      expect(other.status).toBe(404);
      expect(other.body.error.type).toBe('not_found_error');
      const imagine = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a lighthouse' });
      expect(imagine).toMatchObject({ status: 403, body: { code: 24 } });
      expect((await video(gw)).status).toBe(404);
    });
  });

  it('is off with SWITCHYARD_SIMULATOR=off, even with no channel at all; the variable wins over the file', async () => {
    await withGateway({}, { SWITCHYARD_SIMULATOR: 'off' }, async (gw) => {
      expect((await message(gw, 'any-model')).status).toBe(404);
    });
    await withGateway({ simulator: false }, { SWITCHYARD_SIMULATOR: 'on' }, async (gw) => {
      expect((await message(gw, 'any-model')).status).toBe(200);
    });
    expect(() => settingsFromEnv({ SWITCHYARD_SIMULATOR: 'maybe' })).toThrow('SWITCHYARD_SIMULATOR must be on or off');
  });
});
