/**
 * The first-channel rule: the built-in simulator serves every model and
 * action no configured channel serves (so adding one chat channel does not
 * switch images, videos and other models off), never stands in for a
 * configured channel that fails, and is turned off by `simulator: false` in
 * the config file or SWITCHYARD_SIMULATOR=off (the variable wins).
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
  it('keeps serving what no configured channel serves, in every family', async () => {
    await withGateway({ channels: [unreachable] }, {}, async (gw) => {
      // The configured channel's models go to it, and its failure is the client's answer.
      const failed = await message(gw, 'claude-sonnet-4-5');
      expect(failed.status).toBeGreaterThanOrEqual(500);
      // Everything else is still the simulator's.
      const other = await message(gw, 'any-model');
      expect(other.status).toBe(200);
      expect(other.body.type).toBe('message');
      const imagine = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a lighthouse' });
      expect(imagine.body.code).toBe(1);
      expect((await video(gw)).status).toBe(201);

      await gw.gateway.ctx.recorder.flush();
      const logs = (await gw.admin('GET', '/logs?limit=20')).body.data;
      const tried = Object.fromEntries(logs.map((row: any) => [row.model, row.triedChannels]));
      expect(tried['any-model']).toEqual(['builtin-simulator']);
      expect(tried['claude-sonnet-4-5']).not.toContain('builtin-simulator');
    });
  });

  it('serves the models of a disabled channel again', async () => {
    await withGateway({ channels: [{ ...unreachable, enabled: false }] }, {}, async (gw) => {
      expect((await message(gw, 'claude-sonnet-4-5')).status).toBe(200);
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
