/**
 * Prompt caching end to end, through a running gateway: what reaches each
 * upstream (Anthropic breakpoints, OpenAI cache keys), and cache usage
 * reported back in every client dialect, plain and streamed, for every
 * upstream type, logged and billed at the cache prices (one-hour writes at
 * their own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { REPORTED, startCacheUpstreams, type CacheUpstreams } from './cache-usage-upstreams.js';

let fakes: CacheUpstreams;
let gw: TestGateway;
const KEY = 'sk-cache-client-0001';
/** A key of its own for the spend check, so no other test's spend lands in it. */
const SPENDER = 'sk-cache-spender-0001';
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 };

const upstreams = ['anthropic', 'openai-chat', 'openai-responses', 'gemini'] as const;
type Upstream = (typeof upstreams)[number];
const prefix: Record<Upstream, string> = { anthropic: 'anth', 'openai-chat': 'chat', 'openai-responses': 'resp', gemini: 'gem' };

beforeAll(async () => {
  fakes = await startCacheUpstreams();
  gw = await startGateway({
    config: {
      channels: [
        { name: 'anthropic', type: 'anthropic', baseUrl: fakes.anthropic.origin, apiKey: 'sk-up-anthropic', models: ['anth-*'] },
        { name: 'chat', type: 'openai-chat', baseUrl: `${fakes.openaiChat.origin}/v1`, apiKey: 'sk-up-chat', models: ['chat-*'] },
        { name: 'chat-opt-in', type: 'openai-chat', baseUrl: `${fakes.openaiChat.origin}/v1`, apiKey: 'sk-up-chat', models: ['optin-*'], settings: { promptCacheKey: true } },
        { name: 'responses', type: 'openai-responses', baseUrl: `${fakes.openaiResponses.origin}/v1`, apiKey: 'sk-up-responses', models: ['resp-*'] },
        { name: 'gemini', type: 'gemini', baseUrl: fakes.gemini.origin, apiKey: 'AIza-up-gemini', models: ['gem-*'] },
      ],
      keys: [
        { name: 'cache', key: KEY },
        { name: 'spender', key: SPENDER },
      ],
      prices: { 'anth-*': PRICE, 'chat-*': PRICE, 'resp-*': PRICE, 'gem-*': PRICE },
    },
  });
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await fakes?.close();
});

type Json = Record<string, any>;

/** One request in a client dialect; the answer's usage as that dialect words it (a stream's usages merged in order, as a Messages client reads message_start's then message_delta's). */
const clients = {
  messages: {
    path: () => '/v1/messages',
    headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
    body: (model: string, stream: boolean) => ({ model, max_tokens: 50, stream, messages: [{ role: 'user', content: 'hi' }] }),
  },
  'chat-completions': {
    path: () => '/v1/chat/completions',
    headers: { authorization: `Bearer ${KEY}` },
    body: (model: string, stream: boolean) => ({ model, stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'user', content: 'hi' }] }),
  },
  responses: { path: () => '/v1/responses', headers: { authorization: `Bearer ${KEY}` }, body: (model: string, stream: boolean) => ({ model, stream, input: 'hi' }) },
  generate: {
    path: (model: string, stream: boolean) => `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: { 'x-goog-api-key': KEY },
    body: () => ({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
  },
};
type Client = keyof typeof clients;

async function usageOf(client: Client, model: string, stream: boolean): Promise<Json> {
  const spec = clients[client];
  const response = await fetch(`${gw.url}${spec.path(model, stream)}`, {
    method: 'POST',
    headers: { ...spec.headers, 'content-type': 'application/json' },
    body: JSON.stringify(spec.body(model, stream)),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const payloads: Json[] = stream
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
        .map((line) => JSON.parse(line.slice(6)))
    : [JSON.parse(text)];
  const usages = payloads.map((p) => p.usage ?? p.message?.usage ?? p.response?.usage ?? p.usageMetadata).filter(Boolean);
  return Object.assign({}, ...usages);
}

async function logFor(model: string): Promise<Json> {
  for (let attempt = 0; attempt < 80; attempt++) {
    const rows = (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data;
    if (rows.length > 0) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no log row for ${model}`);
}

const { fresh, read, written5m, written1h, output } = REPORTED;

/** The dialect's words for the counts an upstream reported (writes: Anthropic's alone). */
function expectedUsage(client: Client, upstream: Upstream): Json {
  const written = upstream === 'anthropic' ? written5m + written1h : 0;
  const prompt = fresh + read + written;
  switch (client) {
    case 'messages':
      return {
        input_tokens: fresh,
        cache_read_input_tokens: read,
        cache_creation_input_tokens: written,
        output_tokens: output,
        ...(upstream === 'anthropic' ? { cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h } } : {}),
      };
    case 'chat-completions':
      return { prompt_tokens: prompt, completion_tokens: output, prompt_tokens_details: { cached_tokens: read } };
    case 'responses':
      return { input_tokens: prompt, input_tokens_details: { cached_tokens: read }, output_tokens: output };
    case 'generate':
      return { promptTokenCount: prompt, cachedContentTokenCount: read, candidatesTokenCount: output };
  }
}

/** A native answer is relayed as the upstream wrote it: only its own fields can be asked of it. */
const native: Record<Client, Upstream> = { messages: 'anthropic', 'chat-completions': 'openai-chat', responses: 'openai-responses', generate: 'gemini' };

describe.each(Object.keys(clients) as Client[])('a %s client', (client) => {
  describe.each(upstreams)('through %s', (upstream) => {
    it.each([false, true])('reads the cache usage in its own words and is billed at the cache prices (stream: %s)', async (stream) => {
      const model = `${prefix[upstream]}-${client}-${stream ? 'stream' : 'plain'}`;
      const usage = await usageOf(client, model, stream);
      const expected = expectedUsage(client, upstream);
      if (native[client] === upstream && client === 'messages') delete expected.cache_creation;
      expect(usage).toMatchObject(expected);

      const row = await logFor(model);
      const anthropic = upstream === 'anthropic';
      expect(row).toMatchObject({
        inputTokens: fresh,
        outputTokens: output,
        cacheReadTokens: read,
        cacheWriteTokens: anthropic ? written5m + written1h : 0,
        estimated: false,
      });
      if (anthropic) expect(row.cacheWrite1hTokens).toBe(written1h);
      const cost = (fresh * PRICE.input + output * PRICE.output + read * PRICE.cacheRead + (anthropic ? written5m * PRICE.cacheWrite + written1h * PRICE.cacheWrite1h : 0)) / 1_000_000;
      expect(row.cost).toBeCloseTo(cost, 12);
    });
  });
});

async function send(client: Client, model: string, extra: Json = {}, stream = false): Promise<Response> {
  const spec = clients[client];
  return fetch(`${gw.url}${spec.path(model, stream)}`, {
    method: 'POST',
    headers: { ...spec.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...spec.body(model, stream), ...extra }),
  });
}

describe('what reaches the upstream', () => {
  const ephemeral = { type: 'ephemeral' };

  it.each(['chat-completions', 'responses', 'generate'] as Client[])('a %s session sent to Anthropic carries breakpoints at the system prompt and the end of the conversation', async (client) => {
    const system: Record<Client, Json> = {
      messages: {},
      'chat-completions': {
        messages: [
          { role: 'system', content: 'be terse' },
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: 'again' },
        ],
      },
      responses: {
        instructions: 'be terse',
        input: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
          { role: 'user', content: 'again' },
        ],
      },
      generate: {
        systemInstruction: { parts: [{ text: 'be terse' }] },
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ text: 'hello' }] },
          { role: 'user', parts: [{ text: 'again' }] },
        ],
      },
    };
    const response = await send(client, `anth-breakpoints-${client}`, system[client]);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-translation') ?? '').not.toContain('cache_control');
    const body = fakes.anthropic.requests.at(-1)!.json<Json>();
    expect(body.system).toEqual([{ type: 'text', text: 'be terse', cache_control: ephemeral }]);
    expect(body.messages.map((m: Json) => m.content.map((b: Json) => b.cache_control ?? null))).toEqual([[null], [ephemeral], [ephemeral]]);
  });

  it("opencode's one-hour cache_control on a Chat Completions request is sent to Anthropic as it placed it", async () => {
    const messages = [
      { role: 'system', content: [{ type: 'text', text: 'be terse', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ];
    const response = await send('chat-completions', 'anth-opencode-marks', { messages });
    expect(response.headers.get('x-switchyard-translation')).toContain('mapped=cache_control');
    const body = fakes.anthropic.requests.at(-1)!.json<Json>();
    const oneHour = { type: 'ephemeral', ttl: '1h' };
    expect(body.system).toEqual([{ type: 'text', text: 'be terse', cache_control: oneHour }]);
    expect(body.messages.map((m: Json) => m.content.map((b: Json) => b.cache_control ?? null))).toEqual([[oneHour], [null], [null]]);
  });

  it("a Responses client's cache key and retention reach an openai-chat upstream as they are", async () => {
    await send('responses', 'chat-key', { prompt_cache_key: 'codex-session-1', prompt_cache_retention: '24h' });
    expect(fakes.openaiChat.requests.at(-1)!.json()).toMatchObject({ prompt_cache_key: 'codex-session-1', prompt_cache_retention: '24h' });
  });

  it("a Chat Completions client's cache key reaches an openai-responses upstream", async () => {
    await send('chat-completions', 'resp-key', { prompt_cache_key: 'opencode-session-1' });
    expect(fakes.openaiResponses.requests.at(-1)!.json()).toMatchObject({ prompt_cache_key: 'opencode-session-1' });
  });

  it("a Messages client's one-hour mark asks an OpenAI upstream for 24-hour retention", async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] }];
    const response = await send('messages', 'resp-one-hour', { messages });
    expect(response.headers.get('x-switchyard-translation')).toContain('mapped=cache_control');
    expect(fakes.openaiResponses.requests.at(-1)!.json()).toMatchObject({ prompt_cache_retention: '24h' });
  });

  it('an openai-chat channel gets none of the gateway-made cache fields unless it opts in (servers other than OpenAI may refuse them)', async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral', ttl: '1h' } }] }];
    await send('messages', 'chat-one-hour', { messages });
    expect(fakes.openaiChat.requests.at(-1)!.json()).not.toHaveProperty('prompt_cache_retention');
    await send('messages', 'optin-one-hour', { messages });
    expect(fakes.openaiChat.requests.at(-1)!.json()).toMatchObject({ prompt_cache_retention: '24h' });
  });

  it("a Messages client's marks are mapped to Gemini's implicit caching", async () => {
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }];
    const response = await send('messages', 'gem-marks', { messages });
    expect(response.headers.get('x-switchyard-translation')).toContain('mapped=cache_control');
  });

  it("a content-generation client's cachedContent is refused on a translating upstream, not dropped", async () => {
    const response = await send('generate', 'chat-cached-content', { cachedContent: 'cachedContents/abc' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('cachedContent');
  });
});

describe("the key's spend", () => {
  const used = async () => (await gw.admin('GET', '/keys')).body.data.find((key: { name: string }) => key.name === 'spender').used as number;

  it('grows by what the log row charged for cache reads and one-hour writes', async () => {
    const before = await used();
    const response = await fetch(`${gw.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SPENDER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'anth-spend', input: 'hi', stream: true }),
    });
    await response.text();
    const row = await logFor('anth-spend');
    expect(row.cacheWrite1hTokens).toBe(REPORTED.written1h);
    let after = await used();
    for (let attempt = 0; attempt < 80 && Math.abs(after - before - row.cost) > 1e-12; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      after = await used();
    }
    expect(after - before).toBeCloseTo(row.cost, 12);
  });
});
