/**
 * The admin API refuses what would fail later (the same rules as the config
 * file), and a stored record that is invalid anyway is set aside without
 * breaking requests that do not use it. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/http/auth.js';
import type { TestGateway } from '../support/gateway.js';
import { createPlace, ENGINES, type Place } from '../support/places.js';

describe.each(ENGINES)('admin validation on %s', (engine) => {
  let place: Place;
  let gw: TestGateway;

  beforeAll(async () => {
    place = await createPlace(engine);
    gw = await place.start({ config: { keys: [{ name: 'plain', key: 'sk-plain-key-0001' }], channels: [{ name: 'sim', type: 'simulator' }] } });
  });
  afterAll(async () => {
    await gw?.close();
    await place?.destroy();
  });

  const ask = (key: string, model = 'any-model') =>
    fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });

  describe('keys', () => {
    it.each([['10.0.0.0/99'], ['::1/129'], ['10.0.0.300'], ['not-an-address'], ['10.0.0.0/']])('allowIps %s is refused', async (range) => {
      const created = await gw.admin('POST', '/keys', { name: `bad-${range}`, allowIps: [range] });
      expect(created.status).toBe(400);
      expect(created.body.error.message).toMatch(/^allowIps\.0: must be an IP address or CIDR range/);
    });
    it('real addresses and ranges are stored', async () => {
      const created = await gw.admin('POST', '/keys', { name: 'ranges', allowIps: ['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8'] });
      expect(created.status).toBe(201);
      const patched = await gw.admin('PATCH', `/keys/${created.body.id}`, { allowIps: ['10.0.0.0/33'] });
      expect(patched.status).toBe(400);
    });
    it('a name with a NUL byte is refused', async () => {
      expect((await gw.admin('POST', '/keys', { name: 'a\u0000b' })).status).toBe(400);
    });
  });

  describe('channels', () => {
    it.each([
      [{ type: 'no-such-type' }, 'type', /^type: must be one of simulator, anthropic/],
      [{ type: 'anthropic', baseUrl: 'not a url' }, 'baseUrl', /^baseUrl: must be an http\(s\) URL$/],
      [{ type: 'anthropic', baseUrl: 'file:///etc/passwd' }, 'baseUrl', /^baseUrl: must be an http\(s\) URL$/],
      [{ type: 'simulator', settings: { latencyMs: -1 } }, 'settings.latencyMs', /^settings\.latencyMs: must be a number >= 0$/],
      [{ type: 'simulator', settings: { imageSize: 100000 } }, 'settings.imageSize', /^settings\.imageSize: must be a number from 16 to 4096$/],
      [{ type: 'simulator', settings: { accounts: 'one' } }, 'settings.accounts', /^settings\.accounts: must be a list$/],
      [{ type: 'simulator', settings: { latencyMS: 5 } }, 'settings.latencyMS', /^settings\.latencyMS: unknown setting `latencyMS` for a simulator channel; did you mean `latencyMs`\?$/],
      [
        { type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', models: ['*'], settings: { promptCachekey: false } },
        'settings.promptCachekey',
        /unknown setting `promptCachekey` for an openai-chat channel; did you mean `promptCacheKey`\?$/,
      ],
      [{ type: 'anthropic', baseUrl: 'http://x', apiKey: 'k', models: ['c'], settings: { betas: { allow: ['a b'] } } }, 'settings.betas.allow.0', /beta names/],
      [{ type: 'wan', apiKey: 'sk-up', models: ['wan*'] }, 'baseUrl', /^baseUrl: required for type wan \(an absolute http\(s\) URL\)$/],
      [{ type: 'openai-chat', models: ['*'] }, 'baseUrl', /^baseUrl: required for type openai-chat/],
      [{ type: 'anthropic', baseUrl: 'http://127.0.0.1:9', models: ['claude-*'] }, 'apiKey', /^apiKey: required for type anthropic$/],
      [{ type: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKey: '', models: ['claude-*'] }, 'apiKey', /^apiKey: must not be empty/],
      [{ type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', apiKey: ['sk-up', ''], models: ['*'] }, 'apiKey', /^apiKey: must not be empty/],
      [{ type: 'gemini', apiKey: 'sk-up' }, 'models', /^models: required for type gemini: list the model names or patterns/],
      [
        { type: 'ig-proxy', baseUrl: 'http://127.0.0.1:9', models: ['ig_*'], settings: { botTypes: { MID_GEN: '' } } },
        'settings.botTypes.MID_GEN',
        /^settings\.botTypes\.MID_GEN: must be a non-empty string$/,
      ],
    ])('%j is refused naming %s', async (fields, field, message) => {
      const created = await gw.admin('POST', '/channels', { name: `c-${JSON.stringify(fields)}`, ...fields });
      expect(created.status).toBe(400);
      expect(created.body.error).toEqual({ type: 'invalid_request', message: expect.stringMatching(message), param: field });
    });
    it('an empty base URL is taken where the type has a default', async () => {
      const created = await gw.admin('POST', '/channels', { name: 'default-origin', type: 'gemini', apiKey: 'sk-up', models: ['gemini-never'], baseUrl: '' });
      expect(created.status).toBe(201);
    });
    it('a keyless openai-chat channel and a simulator without models are taken', async () => {
      const keyless = await gw.admin('POST', '/channels', { name: 'keyless', type: 'openai-chat', baseUrl: 'http://127.0.0.1:9/v1', models: ['local-never'] });
      expect(keyless.status).toBe(201);
      expect(keyless.body.apiKeyCount).toBe(0);
      const sim = await gw.admin('POST', '/channels', { name: 'sim-default-models', type: 'simulator', enabled: false });
      expect(sim.status).toBe(201);
      expect(sim.body.models).toEqual(['*']);
    });
    it('an update is checked as the whole channel it makes', async () => {
      const created = await gw.admin('POST', '/channels', { name: 'wan-ok', type: 'wan', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-up', models: ['wan-never'] });
      expect(created.status).toBe(201);
      expect((await gw.admin('PATCH', `/channels/${created.body.id}`, { apiKey: [] })).body.error).toMatchObject({ param: 'apiKey' });
      expect((await gw.admin('PATCH', `/channels/${created.body.id}`, { baseUrl: '' })).status).toBe(400);
      expect((await gw.admin('PATCH', `/channels/${created.body.id}`, { settings: { taskPath: 'no-id' } })).status).toBe(400);
      expect((await gw.admin('PATCH', `/channels/${created.body.id}`, { type: 'nope' })).status).toBe(400);
      expect((await gw.admin('PATCH', `/channels/${created.body.id}`, { priority: 3 })).status).toBe(200);
    });
  });

  describe('after the refused writes above', () => {
    it('nothing poisoned was stored', async () => {
      const keys = await gw.admin('GET', '/keys');
      expect(keys.body.data.filter((key: { name: string }) => key.name.startsWith('bad-'))).toEqual([]);
      const channels = await gw.admin('GET', '/channels');
      const names = channels.body.data.map((channel: { name: string }) => channel.name);
      expect(names.filter((name: string) => name.startsWith('c-'))).toEqual([]);
      for (const channel of channels.body.data) expect(channel.baseUrl ?? '').not.toMatch(/^file:|not a url/);
    });
    it('every family still serves', async () => {
      const key = 'sk-plain-key-0001';
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-goog-api-key': key };
      expect((await ask(key)).status).toBe(200);
      const responses = await fetch(`${gw.url}/v1/responses`, { method: 'POST', headers, body: JSON.stringify({ model: 'any-model', input: 'hi' }) });
      expect(responses.status).toBe(200);
      const generate = await fetch(`${gw.url}/v1beta/models/any-model:generateContent`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
      expect(generate.status).toBe(200);
      const images = await fetch(`${gw.url}/ig/submit/imagine`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'a cat' }) });
      expect(images.status).toBe(200);
      const videos = await fetch(`${gw.url}/v1/videos`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'a cat' }) });
      expect(videos.status).toBe(201);
      expect((await fetch(`${gw.url}/readyz`)).status).toBe(200);
    });
  });

  describe('a stored record that is invalid anyway', () => {
    it('a key with a bad allowIps is refused; every other key still works', async () => {
      const store = gw.gateway.ctx.store;
      await store.keys.create({ name: 'poisoned', keyHash: hashKey('sk-poisoned-0001'), keyPrefix: 'sk-poiso', allowIps: ['10.0.0.0/99'] });
      const refused = await ask('sk-poisoned-0001');
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/stored settings are invalid/);
      expect((await ask('sk-plain-key-0001')).status).toBe(200);
    });
    it('a channel with bad settings is disabled; the others serve', async () => {
      const store = gw.gateway.ctx.store;
      await store.channels.create({
        name: 'poisoned-channel',
        type: 'simulator',
        baseUrl: '',
        models: ['*'],
        modelMapping: {},
        priority: 100,
        weight: 1,
        status: 'enabled',
        settings: { latencyMs: 'soon' },
        apiKeysEncrypted: [],
      });
      await gw.gateway.ctx.channels.refresh();
      const poisoned = gw.gateway.ctx.channels.all().find((channel) => channel.name === 'poisoned-channel');
      expect(poisoned?.enabled).toBe(false);
      const response = await ask('sk-plain-key-0001');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-switchyard-channel') ?? 'sim').not.toBe('poisoned-channel');
    });
  });
});
