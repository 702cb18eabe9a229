/**
 * `POST /v1beta/models/{model}:countTokens` (and `/v1/models/…`) with the
 * official client: estimated on the simulator and translating channels
 * (header set), forwarded to a gemini channel's own `:countTokens` (model
 * mapped in the path and inside `generateContentRequest`), estimated when that
 * upstream answers 404, failed over on a 5xx, logged once at no cost.
 */
import { ApiError, GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countRequestTokens } from '../../src/core/tokens.js';
import { parseGenerateCountRequest } from '../../src/families/generate/count-tokens.js';
import { generateToCore } from '../../src/families/generate/to-core.js';
import { agentRequest } from '../support/agent-fixtures.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

const KEY = 'AIza-count-generate-key';

let native: FakeUpstream;
let noCounting: FakeUpstream;
let failing: FakeUpstream;
let translated: FakeUpstream;
let gw: TestGateway;
let genai: GoogleGenAI;

const counted = (n: number): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ totalTokens: n, promptTokensDetails: [{ modality: 'TEXT', tokenCount: n }] }),
});
const failure = (code: number, status: string): FakeReply => ({
  status: code,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ error: { code, message: `upstream says ${code}`, status } }),
});

beforeAll(async () => {
  native = await startFakeUpstream(counted(987));
  noCounting = await startFakeUpstream(failure(404, 'NOT_FOUND'));
  failing = await startFakeUpstream(failure(500, 'INTERNAL'));
  translated = await startFakeUpstream({ status: 500 });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'sim', type: 'simulator', models: ['sim-*'] },
        {
          name: 'native',
          type: 'gemini',
          baseUrl: native.origin,
          apiKey: 'AIza-up-native',
          models: ['gemini-native', 'gemini-failover'],
          modelMapping: { 'mapped-gemini': 'gemini-upstream-name' },
          priority: 5,
        },
        { name: 'no-counting', type: 'gemini', baseUrl: noCounting.origin, apiKey: 'AIza-up-404', models: ['gemini-no-count'] },
        { name: 'failing', type: 'gemini', baseUrl: failing.origin, apiKey: 'AIza-up-500', models: ['gemini-failover'], priority: 10 },
        { name: 'claude', type: 'anthropic', baseUrl: translated.origin, apiKey: 'sk-up-claude', models: ['claude-translated'] },
      ],
      keys: [{ name: 'client', key: KEY }],
      prices: { '*': { input: 1, output: 2 } },
    },
  });
  genai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gw.url } });
});
afterEach(() => native.reply(counted(987)));
afterAll(async () => {
  await gw?.close();
  for (const fake of [native, noCounting, failing, translated]) await fake?.close();
});

const contents = [{ role: 'user', parts: [{ text: 'Hello, how many tokens is this?' }] }];

function estimateOf(body: Record<string, unknown>, model: string): number {
  return countRequestTokens(generateToCore(parseGenerateCountRequest(structuredClone(body)), model, false));
}

async function logOf(model: string): Promise<any> {
  const logs = await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}&limit=1`);
  return logs.body.data[0];
}

const post = (path: string, body: unknown) => fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': KEY }, body: JSON.stringify(body) });

describe('estimated by the gateway', () => {
  it('counts {contents} on the simulator with the gateway tokenizer and says so', async () => {
    const result = await genai.models.countTokens({ model: 'sim-model', contents });
    expect(result.totalTokens).toBe(estimateOf({ contents }, 'sim-model'));
    expect(result.totalTokens).toBeGreaterThan(5);
    expect(result.sdkHttpResponse?.headers?.['x-switchyard-estimated']).toBe('true');
    expect(await logOf('sim-model')).toMatchObject({ family: 'generate.count_tokens', httpStatus: 200, estimated: true, cost: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('answers totalTokens with promptTokensDetails per modality', async () => {
    const withImage = [{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] }];
    const response = await post('/v1beta/models/sim-model:countTokens', { contents: withImage });
    expect(response.status).toBe(200);
    const total = estimateOf({ contents: withImage }, 'sim-model');
    expect(await response.json()).toEqual({
      totalTokens: total,
      promptTokensDetails: [
        { modality: 'TEXT', tokenCount: total - 85 },
        { modality: 'IMAGE', tokenCount: 85 },
      ],
    });
  });

  it("counts Gemini CLI's conversation in a generateContentRequest (system instruction and tools included)", async () => {
    const recorded = agentRequest('gemini-cli-0.61.0', '01-gemini-3.1-pro-preview-plain-turn.json').body;
    const inner = { model: 'models/sim-gemini-cli', ...recorded };
    const response = await post('/v1beta/models/sim-gemini-cli:countTokens', { generateContentRequest: inner });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-estimated')).toBe('true');
    const { totalTokens } = (await response.json()) as { totalTokens: number };
    expect(totalTokens).toBe(estimateOf({ generateContentRequest: inner }, 'sim-gemini-cli'));
    // Its tools and system instruction are counted: far more than its contents alone.
    expect(totalTokens).toBeGreaterThan(estimateOf({ contents: recorded.contents }, 'sim-gemini-cli') + 1000);
  });

  it('counts a translated request without calling the upstream', async () => {
    const before = translated.requests.length;
    const result = await genai.models.countTokens({ model: 'claude-translated', contents });
    expect(result.totalTokens).toBe(estimateOf({ contents }, 'claude-translated'));
    expect(result.sdkHttpResponse?.headers?.['x-switchyard-estimated']).toBe('true');
    expect(translated.requests.length).toBe(before);
  });

  it('falls back to the estimate when the gemini upstream answers 404', async () => {
    const result = await genai.models.countTokens({ model: 'gemini-no-count', contents });
    expect(result.totalTokens).toBe(estimateOf({ contents }, 'gemini-no-count'));
    expect(noCounting.requests.at(-1)!.url).toBe('/v1beta/models/gemini-no-count:countTokens');
    expect(await logOf('gemini-no-count')).toMatchObject({ estimated: true, cost: 0 });
  });
});

describe('forwarded to a gemini channel', () => {
  it("sends the client's body to the mapped model and answers the upstream's count", async () => {
    const result = await genai.models.countTokens({ model: 'mapped-gemini', contents });
    expect(result.totalTokens).toBe(987);
    expect(result.sdkHttpResponse?.headers?.['x-switchyard-estimated']).toBeUndefined();
    const seen = native.requests.at(-1)!;
    expect(seen.url).toBe('/v1beta/models/gemini-upstream-name:countTokens');
    expect(seen.headers['x-goog-api-key']).toBe('AIza-up-native');
    expect(seen.json()).toEqual({ contents });
    expect(await logOf('mapped-gemini')).toMatchObject({ family: 'generate.count_tokens', estimated: false, cost: 0, inputTokens: 0, outputTokens: 0, upstreamModel: 'gemini-upstream-name' });
  });

  it('maps the model inside a generateContentRequest and keeps the rest byte for byte', async () => {
    const inner = { model: 'models/mapped-gemini', contents, systemInstruction: { parts: [{ text: 'Be brief.' }] }, tools: [{ googleSearch: {} }] };
    const response = await post('/v1/models/mapped-gemini:countTokens', { generateContentRequest: inner });
    expect(await response.json()).toEqual({ totalTokens: 987, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 987 }] });
    expect(native.requests.at(-1)!.json()).toEqual({ generateContentRequest: { ...inner, model: 'models/gemini-upstream-name' } });
  });

  it('fails over from a 5xx to the next channel', async () => {
    native.reply(counted(12));
    const result = await genai.models.countTokens({ model: 'gemini-failover', contents });
    expect(result.totalTokens).toBe(12);
    expect(await logOf('gemini-failover')).toMatchObject({ httpStatus: 200, triedChannels: ['failing', 'native'] });
  });
});

describe('like :generateContent', () => {
  it('answers bad input with INVALID_ARGUMENT and a wrong key with UNAUTHENTICATED', async () => {
    const empty = await post('/v1beta/models/sim-model:countTokens', { contents: [] });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as any).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents') });
    const badInner = await post('/v1beta/models/sim-model:countTokens', { generateContentRequest: 'all of it' });
    expect(badInner.status).toBe(400);
    expect(((await badInner.json()) as any).error.message).toContain('generate_content_request');
    const error = await new GoogleGenAI({ apiKey: 'AIza-wrong', httpOptions: { baseUrl: gw.url } }).models.countTokens({ model: 'sim-model', contents }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
  });
});
