/**
 * Model discovery through the official clients: OpenAI's and Anthropic's
 * `models.list`/`retrieve` on `/v1/models`, `@google/genai`'s `models.list`
 * and `get` on `/v1beta/models`. Only models the key may use that an enabled
 * channel serves are listed.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';

let gw: TestGateway;

beforeAll(async () => {
  gw = await startGateway({
    config: {
      channels: [
        { name: 'claude', type: 'simulator', models: ['claude-sonnet-4-5', 'claude-opus-5'], modelMapping: { 'claude-latest': 'claude-opus-5' } },
        { name: 'patterns', type: 'simulator', models: ['gpt-*'], settings: { listedModels: ['gpt-5.1', 'gpt-4o-mini'] } },
        { name: 'gemini', type: 'simulator', models: ['gemini-2.5-flash', 'text-embedding-004'] },
        { name: 'off', type: 'simulator', models: ['hidden-model'], enabled: false },
      ],
      keys: [
        { name: 'all', key: 'sk-client-all' },
        { name: 'claude-only', key: 'sk-client-claude', models: ['claude-*'] },
      ],
      simulator: false,
    },
  });
});
afterAll(async () => gw?.close());

const everything = ['claude-latest', 'claude-opus-5', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'gpt-4o-mini', 'gpt-5.1', 'text-embedding-004'];

describe('OpenAI shape', () => {
  it('lists every served model the key may use', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-all', maxRetries: 0 });
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(everything);
    const one = await client.models.retrieve('gpt-5.1');
    expect(one).toMatchObject({ id: 'gpt-5.1', object: 'model', owned_by: 'switchyard' });
    expect(typeof one.created).toBe('number');
  });

  it('hides what the key may not use, and says 404 for it', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-claude', maxRetries: 0 });
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toEqual(['claude-latest', 'claude-opus-5', 'claude-sonnet-4-5']);
    const error = await client.models.retrieve('gpt-5.1').catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('refuses a missing key with 401', async () => {
    const response = await fetch(`${gw.url}/v1/models`);
    expect(response.status).toBe(401);
    expect(((await response.json()) as any).error.type).toBe('invalid_request_error');
  });
});

describe('Anthropic shape', () => {
  it('pages with limit and after_id, has_more, first_id and last_id', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-all', maxRetries: 0 });
    const first = await client.models.list({ limit: 3 });
    expect(first.data.map((m) => m.id)).toEqual(everything.slice(0, 3));
    expect(first.data[0]).toMatchObject({ type: 'model', display_name: 'claude-latest' });
    expect(first.has_more).toBe(true);
    const ids = [];
    for await (const model of client.models.list({ limit: 2 })) ids.push(model.id);
    expect(ids).toEqual(everything);
    const one = await client.models.retrieve('claude-opus-5');
    expect(one).toMatchObject({ id: 'claude-opus-5', type: 'model' });
    expect(Number.isNaN(Date.parse(one.created_at))).toBe(false);
  });

  it('answers errors in the Messages shape', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-claude', maxRetries: 0 });
    const error = await client.models.retrieve('gpt-5.1').catch((e) => e);
    expect(error.status).toBe(404);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});

describe('Gemini shape', () => {
  it('lists models with their methods and pages them', async () => {
    const genai = new GoogleGenAI({ apiKey: 'sk-client-all', httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
    const names = [];
    for await (const model of await genai.models.list({ config: { pageSize: 2 } })) names.push(model.name);
    expect(names).toEqual(everything.map((id) => `models/${id}`));
    const flash = await genai.models.get({ model: 'gemini-2.5-flash' });
    expect(flash.supportedActions ?? (flash as { supportedGenerationMethods?: string[] }).supportedGenerationMethods).toContain('generateContent');
    expect(flash.inputTokenLimit).toBe(1_048_576);
    const embedder = await genai.models.get({ model: 'text-embedding-004' });
    expect(embedder.supportedActions).toContain('embedContent');
  });

  it("answers an unknown model in Google's error shape", async () => {
    const response = await fetch(`${gw.url}/v1beta/models/nope`, { headers: { 'x-goog-api-key': 'sk-client-all' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  });
});

describe('listedModels setting', () => {
  it('is checked when written', async () => {
    const response = await gw.admin('POST', '/channels', { name: 'bad-list', type: 'simulator', models: ['x-*'], settings: { listedModels: ['x-*'] } });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('listedModels');
  });
});
