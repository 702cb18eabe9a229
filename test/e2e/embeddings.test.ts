/**
 * Embeddings through the official clients: OpenAI's `embeddings.create`
 * (base64 by default, float on request) and `@google/genai`'s
 * `embedContent`, served by the simulator (deterministic unit vectors), an
 * `openai-chat` channel (the body passes as it is) and a `gemini` channel
 * (translated to `:batchEmbedContents`). Billed per input token.
 */
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let openAiUpstream: FakeUpstream;
let geminiUpstream: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;
let genai: GoogleGenAI;

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));

beforeAll(async () => {
  openAiUpstream = await startFakeUpstream((request) => {
    const body = request.json<{ input: unknown[] }>();
    const data = body.input.map((_, index) => ({ object: 'embedding', index, embedding: [0.6, 0.8] }));
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ object: 'list', data, model: 'up', usage: { prompt_tokens: 7, total_tokens: 7 } }) };
  });
  geminiUpstream = await startFakeUpstream((request) => {
    const body = request.json<{ requests: unknown[] }>();
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ embeddings: body.requests.map(() => ({ values: [1, 0, 0] })) }) };
  });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'openai', type: 'openai-chat', baseUrl: `${openAiUpstream.origin}/v1`, apiKey: 'sk-upstream-openai', models: ['text-embedding-3-large'] },
        { name: 'gemini', type: 'gemini', baseUrl: geminiUpstream.origin, apiKey: 'AIza-upstream', models: ['gemini-embedding-001'] },
        { name: 'claude', type: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-upstream-anthropic', models: ['claude-embed'] },
        // Beside provider channels the simulator serves only the models a simulator channel lists.
        { name: 'sim', type: 'simulator', models: ['text-embedding-3-small', 'embed-log-probe', 'text-embedding-004', 'm'] },
      ],
      keys: [{ name: 'client', key: 'sk-client-embed' }],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-embed', maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: 'sk-client-embed', httpOptions: { baseUrl: gw.url, apiVersion: 'v1beta' } });
});
afterAll(async () => {
  await gw?.close();
  await openAiUpstream?.close();
  await geminiUpstream?.close();
});

describe('simulator', () => {
  it('gives the same text the same unit vector, base64 by default', async () => {
    const a = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['the cat', 'a dog', 'the cat'] });
    expect(a.data).toHaveLength(3);
    expect(a.data[0].embedding).toHaveLength(1536);
    expect(norm(a.data[0].embedding)).toBeCloseTo(1, 4);
    expect(a.data[2].embedding).toEqual(a.data[0].embedding);
    expect(a.data[1].embedding).not.toEqual(a.data[0].embedding);
    expect(a.usage.prompt_tokens).toBeGreaterThan(0);
    const float = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'the cat', encoding_format: 'float', dimensions: 8 });
    expect(float.data[0].embedding).toHaveLength(8);
  });

  it('validates input like the vendor', async () => {
    const empty = await client.embeddings.create({ model: 'text-embedding-3-small', input: '' }).catch((e) => e);
    expect(empty.status).toBe(400);
    expect(empty.error.param).toBe('input');
    const format = await client.embeddings.create({ model: 'm', input: 'x', encoding_format: 'hex' as never }).catch((e) => e);
    expect(format.error.param).toBe('encoding_format');
  });

  it('refuses token-array input where no channel takes it as it is, before routing', async () => {
    const error = await client.embeddings.create({ model: 'text-embedding-3-small', input: [[1, 2, 3]] }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error.param).toBe('input');
    expect(error.message).toContain('token ids');
  });

  it('logs input tokens under the embeddings family', async () => {
    await client.embeddings.create({ model: 'embed-log-probe', input: 'count these words' });
    const logs = await gw.admin('GET', '/logs?model=embed-log-probe');
    expect(logs.body.data[0]).toMatchObject({ family: 'embeddings', httpStatus: 200, outputTokens: 0 });
    expect(logs.body.data[0].inputTokens).toBeGreaterThan(0);
  });

  it('serves the Gemini dialect: embedContent and a batch', async () => {
    const one = await genai.models.embedContent({ model: 'text-embedding-004', contents: 'the cat' });
    expect(one.embeddings![0].values).toHaveLength(1536);
    const many = await genai.models.embedContent({ model: 'text-embedding-004', contents: ['the cat', 'a dog'], config: { outputDimensionality: 16 } });
    expect(many.embeddings!.map((e) => e.values!.length)).toEqual([16, 16]);
  });
});

describe('openai-chat channel (pass-through)', () => {
  it('forwards the body as it is, token arrays included, and bills the reported usage', async () => {
    const body = { model: 'text-embedding-3-large', input: [[1, 2, 3]], encoding_format: 'float' as const, user: 'u-1' };
    const answer = await client.embeddings.create(body);
    expect(answer.data[0].embedding).toEqual([0.6, 0.8]);
    const seen = openAiUpstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/embeddings');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.json()).toEqual(body);
    const logs = await gw.admin('GET', '/logs?model=text-embedding-3-large');
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 7, estimated: false });
  });

  it('serves a Gemini client by translation', async () => {
    const answer = await genai.models.embedContent({ model: 'text-embedding-3-large', contents: 'hello' });
    expect(answer.embeddings![0].values).toEqual([0.6, 0.8]);
    expect(openAiUpstream.requests.at(-1)!.json()).toEqual({ model: 'text-embedding-3-large', input: ['hello'], encoding_format: 'float' });
  });
});

describe('gemini channel (translation)', () => {
  it('sends one batchEmbedContents request for an OpenAI client', async () => {
    const answer = await client.embeddings.create({ model: 'gemini-embedding-001', input: ['a', 'b'], encoding_format: 'float', dimensions: 3 });
    expect(answer.data.map((d) => d.embedding)).toEqual([
      [1, 0, 0],
      [1, 0, 0],
    ]);
    const seen = geminiUpstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(seen.headers['x-goog-api-key']).toBe('AIza-upstream');
    expect(seen.json()).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] }, outputDimensionality: 3 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] }, outputDimensionality: 3 },
      ],
    });
  });

  it('never asks a channel type without embeddings: a model only such a channel serves is a 404', async () => {
    const error = await client.embeddings.create({ model: 'claude-embed', input: 'x' }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.error).toMatchObject({ param: 'model', message: expect.stringContaining('claude-embed') });
    await gw.gateway.ctx.recorder.flush();
    const logs = await gw.admin('GET', '/logs?model=claude-embed');
    expect(logs.body.data[0]).toMatchObject({ httpStatus: 404, channelId: null });
  });
});
