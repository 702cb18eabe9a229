/**
 * Every client family through a `vertex` channel, with the official SDKs,
 * against a loopback Vertex that checks credentials as Google does
 * (test/support/fake-vertex.ts): a Claude model takes Messages clients as
 * they are (rawPredict / streamRawPredict) and a Gemini model takes
 * content-generation clients as they are; every other family is translated.
 * Plain, streamed, a tool round, an image in, reasoning and cache usage; the
 * count endpoints; a 429 with its retry delay; a content filter as the
 * family's refusal; a service-account key the token endpoint refuses benches
 * its channel and the request fails over.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { googleError, startFakeVertex, type FakeVertex } from '../support/fake-vertex.js';
import { sdkClients } from '../support/sdk-clients.js';

const CLIENT_KEY = 'sk-client-vertex';
const CLAUDE = 'claude-sonnet-4-5@20250929';
const GEMINI = 'gemini-2.5-flash';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let fake: FakeVertex;
let gw: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  fake = await startFakeVertex();
  const settings = { project: fake.project, location: fake.location, endpoint: fake.origin };
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'vertex',
          type: 'vertex',
          apiKey: fake.serviceAccountKey(),
          models: ['claude-vertex', 'gemini-vertex', 'failover-gemini'],
          modelMapping: { 'claude-vertex': CLAUDE, 'gemini-vertex': GEMINI, 'failover-gemini': GEMINI },
          settings,
        },
        // Its own lists replace the built-in ones: every beta goes, and Vertex refuses those it lacks.
        {
          name: 'vertex-any-beta',
          type: 'vertex',
          apiKey: fake.serviceAccountKey(),
          models: ['claude-any-beta'],
          modelMapping: { 'claude-any-beta': CLAUDE },
          settings: { ...settings, betas: { deny: ['no-such-beta-*'] } },
        },
        // Tried first for its model; its key is signed by a key the token endpoint does not trust.
        { name: 'vertex-foreign', type: 'vertex', priority: 10, apiKey: fake.foreignServiceAccountKey(), models: ['failover-gemini'], modelMapping: { 'failover-gemini': GEMINI }, settings },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
  ({ anthropic, openai, genai } = sdkClients(gw.url, CLIENT_KEY));
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
});

const last = () => fake.requests.at(-1)!;
const weatherTool = { name: 'get_weather', description: 'Current weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

describe('Messages clients', () => {
  it('pass through to a Claude model: plain, with cache usage, the Vertex body and the client’s betas', async () => {
    const message = await anthropic.messages.create(
      { model: 'claude-vertex', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] },
      { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } },
    );
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Claude on Vertex.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 8, cache_creation_input_tokens: 2, output_tokens: 6 });
    expect(last()).toMatchObject({ publisher: 'anthropic', model: CLAUDE, verb: 'rawPredict' });
    expect(last().body.anthropic_version).toBe('vertex-2023-10-16');
    expect(last().body).not.toHaveProperty('model');
    expect(last().headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    const logs = await gw.admin('GET', '/logs?model=claude-vertex');
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 12, outputTokens: 6, cacheReadTokens: 8, cacheWriteTokens: 2, triedChannels: ['vertex'] });
  });

  it('stream, call a tool and take its result, with thinking, and an image in', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-vertex',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const first = await stream.finalMessage();
    expect(last().verb).toBe('streamRawPredict');
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const call = first.content[1] as Anthropic.ToolUseBlock;
    expect(call.input).toEqual({ city: 'Paris' });
    const second = await anthropic.messages.create({
      model: 'claude-vertex',
      max_tokens: 100,
      tools: [weatherTool],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'text', text: 'Weather in Paris?' },
          ],
        },
        { role: 'assistant', content: [call] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21°C' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'I see an image.' }]);
  });

  it('are translated for a Gemini model', async () => {
    const message = await anthropic.messages.create({ model: 'gemini-vertex', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Gemini on Vertex.' }]);
    expect(last()).toMatchObject({ publisher: 'google', model: GEMINI, verb: 'generateContent' });
  });

  it('count at count-tokens:rawPredict for a Claude model', async () => {
    const counted = await anthropic.messages.countTokens({ model: 'claude-vertex', messages: [{ role: 'user', content: 'Hello' }] });
    expect(counted.input_tokens).toBe(14);
    expect(last()).toMatchObject({ model: 'count-tokens', verb: 'rawPredict' });
    expect(last().body.model).toBe(CLAUDE);
  });

  it('the betas Vertex lacks are left out; a channel’s own lists replace that, and Vertex’s refusal reaches the client', async () => {
    const betas = 'claude-code-20250219,context-1m-2025-08-07,effort-2025-11-24';
    await anthropic.messages.create({ model: 'claude-vertex', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] }, { headers: { 'anthropic-beta': betas } });
    expect(last().headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    const refused = await anthropic.messages
      .create({ model: 'claude-any-beta', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] }, { headers: { 'anthropic-beta': betas } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).message).toContain('Unexpected value(s) `claude-code-20250219`, `effort-2025-11-24` for the `anthropic-beta` header');
  });

  it('get Vertex’s 429 as a rate limit with its retry delay', async () => {
    fake.script(googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model', { 'retry-after': '7' }));
    const limited = await anthropic.messages.create({ model: 'claude-vertex', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).toBe('7');
    // Google's front end answered, in Google's shape: the client gets its own family's error.
    expect((limited as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('get the model’s own Messages error unchanged', async () => {
    fake.script({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } }),
    });
    const refused = await anthropic.messages.create({ model: 'claude-vertex', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
    });
  });
});

describe('Claude Code’s recorded requests (pass-through to a Claude model)', () => {
  const recorded = (file: string) =>
    JSON.parse(readFileSync(new URL(`../fixtures/agents/claude-code-2.1.328/${file}`, import.meta.url), 'utf8')) as { headers: Record<string, string>; body: Record<string, unknown> };

  it.each(['01-claude-opus-5-plain-turn.json', '02-claude-opus-5-tool-first-turn.json', '03-claude-opus-5-tool-result-turn.json', '06-claude-sonnet-4-5-tool-result-turn.json'])(
    '%s reaches streamRawPredict as sent, model in the path, only the betas Vertex takes in the header',
    async (file) => {
      const { headers, body } = recorded(file);
      const sent = { ...headers, 'x-api-key': CLIENT_KEY } as Record<string, string>;
      delete sent['accept-encoding'];
      const res = await fetch(`${gw.url}/v1/messages?beta=true`, { method: 'POST', headers: sent, body: JSON.stringify({ ...body, model: 'claude-vertex' }) });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toContain('event: message_stop');
      const seen = last();
      expect(seen.verb).toBe(body.stream ? 'streamRawPredict' : 'rawPredict');
      const { model: _model, ...rest } = body;
      expect(seen.body).toEqual({ ...rest, anthropic_version: 'vertex-2023-10-16' });
      // Claude Code's own, effort, tool-use and token-count betas are refused by Vertex: left out.
      expect(seen.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-management-2025-06-27');
      expect(seen.headers['x-api-key']).toBeUndefined();
      expect(seen.headers['x-claude-code-session-id']).toBeUndefined();
    },
  );
});

describe('content-generation clients', () => {
  it('pass through to a Gemini model, plain and streamed, with thoughts and cached tokens', async () => {
    const plain = await genai.models.generateContent({ model: 'gemini-vertex', contents: 'Hello', config: { thinkingConfig: { includeThoughts: true } } });
    expect(plain.text).toBe('Hello from Gemini on Vertex.');
    expect(plain.usageMetadata).toMatchObject({ promptTokenCount: 12, cachedContentTokenCount: 4, thoughtsTokenCount: 4 });
    expect(last()).toMatchObject({ publisher: 'google', verb: 'generateContent' });
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-vertex', contents: 'Hello' })) text += chunk.text ?? '';
    expect(text).toBe('Hello from Gemini on Vertex.');
    expect(last().verb).toBe('streamGenerateContent?alt=sse');
    const logs = await gw.admin('GET', '/logs?model=gemini-vertex');
    // Gemini's prompt count includes the cached tokens; the log keeps them apart.
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 8, cacheReadTokens: 4, triedChannels: ['vertex'] });
  });

  it('call a tool and count tokens', async () => {
    const called = await genai.models.generateContent({
      model: 'gemini-vertex',
      contents: 'Weather in Paris?',
      config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weatherTool.input_schema }] }] },
    });
    expect(called.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    const counted = await genai.models.countTokens({ model: 'gemini-vertex', contents: 'Hello' });
    expect(counted.totalTokens).toBe(11);
    expect(last().verb).toBe('countTokens');
  });

  it('are translated for a Claude model', async () => {
    const answer = await genai.models.generateContent({ model: 'claude-vertex', contents: 'Hello' });
    expect(answer.text).toBe('Hello from Claude on Vertex.');
    expect(last()).toMatchObject({ publisher: 'anthropic', verb: 'rawPredict' });
    expect(last().body).not.toHaveProperty('model');
  });
});

describe('OpenAI clients (translated)', () => {
  it('Chat Completions: both publishers, plain and streamed, a tool call, cache usage', async () => {
    for (const model of ['claude-vertex', 'gemini-vertex']) {
      const completion = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }] });
      expect(completion.choices[0]!.message.content).toMatch(/^Hello from (Claude|Gemini) on Vertex\.$/);
      expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThan(0);
      let streamed = '';
      for await (const chunk of await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Hello' }] })) streamed += chunk.choices[0]?.delta.content ?? '';
      expect(streamed).toBe(completion.choices[0]!.message.content);
      const tooled = await openai.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } }],
      });
      expect(tooled.choices[0]!.finish_reason).toBe('tool_calls');
      expect(JSON.parse(tooled.choices[0]!.message.tool_calls![0]!.type === 'function' ? tooled.choices[0]!.message.tool_calls![0]!.function.arguments : '{}')).toEqual({ city: 'Paris' });
    }
  });

  it('Chat Completions: a Gemini content filter is the finish reason content_filter', async () => {
    fake.script({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY' }], usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } }),
    });
    const filtered = await openai.chat.completions.create({ model: 'gemini-vertex', messages: [{ role: 'user', content: 'Hello' }] });
    expect(filtered.choices[0]!.finish_reason).toBe('content_filter');
  });

  it('Responses: plain and streamed', async () => {
    const response = await openai.responses.create({ model: 'claude-vertex', input: 'Hello' });
    expect(response.output_text).toBe('Hello from Claude on Vertex.');
    const stream = await openai.responses.create({ model: 'gemini-vertex', input: 'Hello', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Hello from Gemini on Vertex.');
  });
});

describe('reasoning state through vertex', () => {
  it('a Claude thought a Responses client got from vertex goes back to vertex, signed, on the next translated turn', async () => {
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: weatherTool.input_schema, strict: false }];
    const first = await openai.responses.create({
      model: 'claude-vertex',
      input: 'Weather in Paris?',
      tools,
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const reasoning = first.output.find((item) => item.type === 'reasoning');
    const call = first.output.find((item) => item.type === 'function_call');
    expect(reasoning?.encrypted_content).toMatch(/^swy1/);
    expect(call).toBeDefined();
    await openai.responses.create({
      model: 'claude-vertex',
      input: [{ role: 'user', content: 'Weather in Paris?' }, ...first.output, { type: 'function_call_output', call_id: call!.type === 'function_call' ? call!.call_id : '', output: 'sunny' }],
      tools,
      reasoning: { effort: 'low' },
      include: ['reasoning.encrypted_content'],
      store: false,
    } as Parameters<typeof openai.responses.create>[0]);
    const sent = last();
    expect(sent).toMatchObject({ publisher: 'anthropic' });
    const assistant = (sent.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>).find((message) => message.role === 'assistant')!;
    // The vendor's own signature, unsealed, leads the tool-calling turn, and thinking stays on.
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'Thinking it over.', signature: 'EqQBCkYIBRgCKkD' });
    expect(sent.body.thinking).toMatchObject({ type: 'enabled' });
  });
});

describe('credentials', () => {
  it('the console’s channel form gets the type’s settings and is told to ask for the key', async () => {
    const types = await gw.admin('GET', '/channel-types');
    const vertex = types.body.data.find((entry: { type: string }) => entry.type === 'vertex');
    expect(vertex).toMatchObject({ serves: ['chat'], needs: { baseUrl: false, credentials: true } });
    expect(Object.keys(vertex.settings.properties)).toEqual(expect.arrayContaining(['project', 'location', 'endpoint', 'auth', 'betas']));
    expect(vertex.settings.properties.auth).toMatchObject({ enum: ['service-account', 'access-token'], default: 'service-account' });
  });

  it('a service-account key the token endpoint refuses benches its channel; the request fails over', async () => {
    const refusedBefore = fake.assertionsRefused;
    const answer = await openai.chat.completions.create({ model: 'failover-gemini', messages: [{ role: 'user', content: 'Hello' }] });
    expect(answer.choices[0]!.message.content).toBe('Hello from Gemini on Vertex.');
    expect(fake.assertionsRefused - refusedBefore).toBe(1);
    const logs = await gw.admin('GET', '/logs?model=failover-gemini');
    expect(logs.body.data[0].triedChannels).toEqual(['vertex-foreign', 'vertex']);
    expect(JSON.stringify(logs.body.data[0])).not.toContain('PRIVATE KEY');
    // Benched: the next request goes straight to the channel that works.
    await openai.chat.completions.create({ model: 'failover-gemini', messages: [{ role: 'user', content: 'Hello' }] });
    expect(fake.assertionsRefused - refusedBefore).toBe(1);
  });
});
