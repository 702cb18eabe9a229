/**
 * The simulator never answers in the name of a real model. With a provider's
 * channel stored (enabled or not), a model no channel serves is a 404 in each
 * family's own shape, saying how to route it, and nothing is logged as served
 * or billed; `/v1/models` in every shape lists exactly what the enabled
 * channels serve. A channel of type `simulator` serves the models it lists
 * beside a real channel. On SQLite and PostgreSQL.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_BESIDE_CHANNELS_WARNING } from '../../src/routing/simulator-setting.js';
import { createPlace, ENGINES } from '../support/places.js';
import type { TestGateway } from '../support/gateway.js';
import { igClient } from '../families/images/support.js';

const KEY = 'sk-simulator-beside-01';
// A provider's channel that is never reached here: the models asked for are not its own.
const real = { name: 'openai', type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-upstream-secret-1', models: ['gpt-real'] };
const sim = { name: 'sim', type: 'simulator', models: ['demo-model', 'demo-embed', 'sora-2'] };
const TYPO = 'gpt-reall';

const headers = { 'x-api-key': KEY, authorization: `Bearer ${KEY}`, 'x-goog-api-key': KEY, 'content-type': 'application/json' };

async function call(gw: TestGateway, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const response = await fetch(gw.url + path, { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

const anthropic = { 'anthropic-version': '2023-06-01' };
const messageBody = (model: string) => ({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] });
const contents = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };

/** One request per family and route that names a model, and the error shape each answers in. */
const routes = (model: string) => [
  { name: 'Messages', send: (gw: TestGateway) => call(gw, 'POST', '/v1/messages', messageBody(model), anthropic), shape: 'messages' },
  { name: 'Messages token counting', send: (gw: TestGateway) => call(gw, 'POST', '/v1/messages/count_tokens', { model, messages: [{ role: 'user', content: 'hi' }] }, anthropic), shape: 'messages' },
  { name: 'generateContent', send: (gw: TestGateway) => call(gw, 'POST', `/v1beta/models/${encodeURIComponent(model)}:generateContent`, contents), shape: 'google' },
  { name: 'countTokens', send: (gw: TestGateway) => call(gw, 'POST', `/v1beta/models/${encodeURIComponent(model)}:countTokens`, contents), shape: 'google' },
  { name: 'embedContent', send: (gw: TestGateway) => call(gw, 'POST', `/v1beta/models/${encodeURIComponent(model)}:embedContent`, { content: { parts: [{ text: 'hi' }] } }), shape: 'google' },
  { name: 'Responses', send: (gw: TestGateway) => call(gw, 'POST', '/v1/responses', { model, input: 'hello' }), shape: 'openai' },
  { name: 'Responses token counting', send: (gw: TestGateway) => call(gw, 'POST', '/v1/responses/input_tokens', { model, input: 'hello' }), shape: 'openai' },
  { name: 'Responses compaction', send: (gw: TestGateway) => call(gw, 'POST', '/v1/responses/compact', { model, input: 'hello' }), shape: 'openai' },
  { name: 'Chat Completions', send: (gw: TestGateway) => call(gw, 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hello' }] }), shape: 'openai' },
  { name: 'legacy Completions', send: (gw: TestGateway) => call(gw, 'POST', '/v1/completions', { model, prompt: 'hello' }), shape: 'openai' },
  { name: 'embeddings', send: (gw: TestGateway) => call(gw, 'POST', '/v1/embeddings', { model, input: 'hello' }), shape: 'openai' },
  { name: 'rerank', send: (gw: TestGateway) => call(gw, 'POST', '/v1/rerank', { model, query: 'hello', documents: ['hello'] }), shape: 'openai' },
  { name: 'moderations', send: (gw: TestGateway) => call(gw, 'POST', '/v1/moderations', { model, input: 'hello' }), shape: 'openai' },
  { name: 'image generations', send: (gw: TestGateway) => call(gw, 'POST', '/v1/images/generations', { model, prompt: 'hello', size: '16x16', response_format: 'b64_json' }), shape: 'openai' },
  { name: 'video', send: (gw: TestGateway) => call(gw, 'POST', '/v1/videos', { model, prompt: 'a lighthouse', seconds: '1' }), shape: 'openai' },
  { name: 'models/{id} (OpenAI)', send: (gw: TestGateway) => call(gw, 'GET', `/v1/models/${encodeURIComponent(model)}`), shape: 'openai' },
  { name: 'models/{id} (Anthropic)', send: (gw: TestGateway) => call(gw, 'GET', `/v1/models/${encodeURIComponent(model)}`, undefined, anthropic), shape: 'messages' },
  { name: 'models/{id} (Gemini)', send: (gw: TestGateway) => call(gw, 'GET', `/v1beta/models/${encodeURIComponent(model)}`), shape: 'google' },
];

function expectShape(shape: string, status: number, body: any, message: RegExp) {
  if (shape === 'messages') expect(body).toMatchObject({ type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message: expect.stringMatching(message) } });
  else if (shape === 'google') expect(body.error).toMatchObject({ code: status, status: status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT', message: expect.stringMatching(message) });
  else expect(body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringMatching(message) });
}

async function listed(gw: TestGateway) {
  const openAi = (await call(gw, 'GET', '/v1/models')).body.data.map((m: any) => m.id);
  const claude = (await call(gw, 'GET', '/v1/models?limit=1000', undefined, anthropic)).body.data.map((m: any) => m.id);
  const gemini = (await call(gw, 'GET', '/v1beta/models?pageSize=1000')).body.models.map((m: any) => m.name.replace(/^models\//, ''));
  return { openAi, claude, gemini };
}

describe.each(ENGINES)('the simulator beside provider channels (%s)', (engine) => {
  async function withGateway(config: Record<string, unknown>, test: (gw: TestGateway) => Promise<void>, env: Record<string, string> = {}, logger?: pino.Logger) {
    const place = await createPlace(engine);
    const gw = await place.start({ config: { keys: [{ name: 'client', key: KEY }], ...config }, env, logger });
    try {
      await test(gw);
    } finally {
      await gw.close();
      await place.destroy();
    }
  }

  it("answers a model no channel serves with a 404 in each family's shape, saying how to route it; nothing is served or billed", async () => {
    // Every model priced, so a request served by mistake would show as spend.
    await withGateway({ channels: [real], prices: { '*': { input: 100, output: 100 } } }, async (gw) => {
      for (const route of routes(TYPO)) {
        const { status, body } = await route.send(gw);
        expect(status, route.name).toBe(404);
        expectShape(route.shape, 404, body, new RegExp(TYPO));
        expect(JSON.stringify(body), route.name).not.toContain('sk-upstream-secret-1');
        if (!route.name.startsWith('models/')) expect(JSON.stringify(body), route.name).toMatch(/add it to a channel's models, or add a channel of type simulator/);
      }
      const imagine = await igClient(gw.url, KEY).post('/ig/submit/imagine', { prompt: 'a lighthouse' });
      expect(imagine).toMatchObject({ status: 403, body: { code: 24 } });

      await gw.gateway.ctx.recorder.flush();
      const logs = (await gw.admin('GET', `/logs?model=${TYPO}&limit=100`)).body.data;
      expect(logs.length).toBeGreaterThan(0);
      for (const row of logs) expect(row).toMatchObject({ httpStatus: 404, channelId: null, cost: 0, triedChannels: [] });
      const key = (await gw.admin('GET', '/keys')).body.data.find((k: any) => k.name === 'client');
      expect(key.used).toBe(0);
    });
  });

  it("lists exactly what the enabled channels serve in every shape, not the simulator's demo models", async () => {
    await withGateway({ channels: [real] }, async (gw) => {
      expect(await listed(gw)).toEqual({ openAi: ['gpt-real'], claude: ['gpt-real'], gemini: ['gpt-real'] });
    });
  });

  it('serves the models a simulator channel lists beside a real channel, and nothing else', async () => {
    await withGateway({ channels: [real, sim], prices: { '*': { input: 100, output: 100 } } }, async (gw) => {
      const answer = await call(gw, 'POST', '/v1/messages', messageBody('demo-model'), anthropic);
      expect(answer.status).toBe(200);
      expect(answer.body.type).toBe('message');
      expect((await call(gw, 'POST', '/v1/embeddings', { model: 'demo-embed', input: 'hi' })).status).toBe(200);
      expect((await call(gw, 'POST', '/v1/messages', messageBody(TYPO), anthropic)).status).toBe(404);
      expect(await listed(gw)).toEqual({
        openAi: ['demo-embed', 'demo-model', 'gpt-real', 'sora-2'],
        claude: ['demo-embed', 'demo-model', 'gpt-real', 'sora-2'],
        gemini: ['demo-embed', 'demo-model', 'gpt-real', 'sora-2'],
      });
      await gw.gateway.ctx.recorder.flush();
      const logs = (await gw.admin('GET', '/logs?model=demo-model')).body.data;
      expect(logs[0].triedChannels).toEqual(['sim']);
      expect(logs[0].cost).toBeGreaterThan(0);
    });
  });

  it('does not hand the models of a disabled (or the only) provider channel to the simulator', async () => {
    await withGateway({ channels: [{ ...real, enabled: false }] }, async (gw) => {
      const answer = await call(gw, 'POST', '/v1/messages', messageBody('gpt-real'), anthropic);
      expect(answer.status).toBe(404);
      expect(answer.body.error.type).toBe('not_found_error');
      expect(await listed(gw)).toEqual({ openAi: [], claude: [], gemini: [] });
    });
  });

  it('stops the built-in simulator once a provider channel is added through the admin API', async () => {
    await withGateway({}, async (gw) => {
      expect((await call(gw, 'POST', '/v1/messages', messageBody(TYPO), anthropic)).status).toBe(200);
      expect((await gw.admin('POST', '/channels', real)).status).toBe(201);
      expect((await call(gw, 'POST', '/v1/messages', messageBody(TYPO), anthropic)).status).toBe(404);
    });
  });

  it('keeps an explicit simulator: true or SWITCHYARD_SIMULATOR=on from bringing the fallback back, with one warning at start', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write: (chunk, _enc, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const warnings = () => lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === SIMULATOR_BESIDE_CHANNELS_WARNING && entry.level === 40);
    for (const [config, env] of [
      [{ simulator: true }, {}],
      [{}, { SWITCHYARD_SIMULATOR: 'on' }],
    ] as const) {
      lines.length = 0;
      await withGateway(
        { channels: [real], ...config },
        async (gw) => {
          expect((await call(gw, 'POST', '/v1/messages', messageBody(TYPO), anthropic)).status).toBe(404);
          expect(warnings()).toHaveLength(1);
        },
        env,
        logger,
      );
    }
    // Neither set: nothing to warn about.
    lines.length = 0;
    await withGateway({ channels: [real] }, async () => expect(warnings()).toHaveLength(0), {}, logger);
  });
});
