/**
 * The `azure-openai` channel type against a loopback Azure resource and
 * Entra ID token endpoint that check credentials as the services do
 * (azure-fake.ts), through every client family's official SDK: Chat
 * Completions and Responses clients pass through to the API they speak,
 * Messages and content-generation clients are translated to the channel's
 * `api`. Both route styles, both kinds of credential, the prompt filter's
 * opening chunk, the content filter and throttling.
 */
import { readFileSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { startFakeUpstream, type FakeUpstream } from '../upstreams/support/fake-upstream.js';
import { AZURE_API_KEY, CLIENT_ID, CLIENT_SECRET, startAzureFake, TENANT_ID, type AzureFake } from './azure-fake.js';

const CLIENT_KEY = 'sk-client-azure-01';
let fake: AzureFake;
/** An OpenAI Responses service, whose encrypted reasoning only it can open. */
let openAiService: FakeUpstream;
let gw: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

const entra = (extra: Record<string, unknown> = {}) => ({ auth: 'entra-id', tenantId: TENANT_ID, clientId: CLIENT_ID, tokenEndpoint: `${fake.login.origin}/${TENANT_ID}/oauth2/v2.0/token`, ...extra });

beforeAll(async () => {
  fake = await startAzureFake(['gpt-4o-deploy', 'o4-mini-deploy']);
  openAiService = await startFakeUpstream({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(openAiReasoningAnswer) });
  const resource = fake.resource.origin;
  const mapping = { 'gpt-4o': 'gpt-4o-deploy', 'o4-mini': 'o4-mini-deploy' };
  gw = await startGateway({
    config: {
      channels: [
        { name: 'azure', type: 'azure-openai', baseUrl: resource, apiKey: AZURE_API_KEY, models: ['gpt-4o', 'o4-mini'], modelMapping: mapping },
        {
          name: 'azure-dated',
          type: 'azure-openai',
          baseUrl: `${resource}/openai`,
          apiKey: AZURE_API_KEY,
          models: ['dated-gpt-4o'],
          modelMapping: { 'dated-gpt-4o': 'gpt-4o-deploy' },
          settings: { routes: 'dated' },
        },
        {
          name: 'azure-responses',
          type: 'azure-openai',
          baseUrl: resource,
          apiKey: AZURE_API_KEY,
          models: ['resp-o4-mini'],
          modelMapping: { 'resp-o4-mini': 'o4-mini-deploy' },
          settings: { api: 'responses' },
        },
        { name: 'azure-entra', type: 'azure-openai', baseUrl: resource, apiKey: CLIENT_SECRET, models: ['entra-gpt-4o'], modelMapping: { 'entra-gpt-4o': 'gpt-4o-deploy' }, settings: entra() },
        // A wrong client secret: the token is refused, the channel benched, and the request fails over to the next.
        {
          name: 'azure-entra-bad',
          type: 'azure-openai',
          baseUrl: resource,
          apiKey: 'entra-secret-wrong-000000',
          models: ['failover-gpt-4o'],
          modelMapping: { 'failover-gpt-4o': 'gpt-4o-deploy' },
          priority: 10,
          settings: entra(),
        },
        // A wrong api-key, refused by the resource: benched, and the request fails over.
        {
          name: 'azure-bad-key',
          type: 'azure-openai',
          baseUrl: resource,
          apiKey: 'azure-key-wrong-0000000000',
          models: ['failover-gpt-4o'],
          modelMapping: { 'failover-gpt-4o': 'gpt-4o-deploy' },
          priority: 5,
        },
        { name: 'azure-backup', type: 'azure-openai', baseUrl: resource, apiKey: AZURE_API_KEY, models: ['failover-gpt-4o'], modelMapping: { 'failover-gpt-4o': 'gpt-4o-deploy' }, priority: 0 },
        { name: 'openai', type: 'openai-responses', baseUrl: `${openAiService.origin}/v1`, apiKey: 'sk-openai-0123456789abcdef', models: ['openai-o4'] },
      ],
      keys: [{ name: 'client', key: CLIENT_KEY }],
    },
  });
  openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: CLIENT_KEY, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gw.url, apiKey: CLIENT_KEY, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: CLIENT_KEY, httpOptions: { baseUrl: gw.url } });
});
afterEach(() => gw.gateway.ctx.health.reset());
afterAll(async () => {
  await gw?.close();
  await fake?.close();
  await openAiService?.close();
});

/** OpenAI's answer with a reasoning item whose encrypted content only OpenAI's organisation can open. */
const openAiReasoningAnswer = {
  id: 'resp_openai_1',
  object: 'response',
  created_at: 1732000000,
  status: 'completed',
  error: null,
  incomplete_details: null,
  model: 'o4-mini-2025-04-16',
  output: [
    { id: 'rs_openai_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Greet back.' }], encrypted_content: 'OPENAI-ORG-ENCRYPTED' },
    { id: 'msg_openai_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello from OpenAI.', annotations: [] }] },
  ],
  parallel_tool_calls: true,
  tools: [],
  usage: { input_tokens: 10, output_tokens: 20, output_tokens_details: { reasoning_tokens: 8 }, total_tokens: 30 },
};

const lastLog = async (model: string) => (await gw.admin('GET', `/logs?model=${encodeURIComponent(model)}`)).body.data[0];
const ask = (model: string, content = 'Hello') => ({ model, messages: [{ role: 'user' as const, content }] });
const RED_DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

describe('Chat Completions client (pass-through)', () => {
  it('sends the deployment as the model to the v1 route with the api-key header', async () => {
    const completion = await openai.chat.completions.create(ask('gpt-4o'));
    expect(completion.choices[0].message.content).toBe('Hello from Azure.');
    const seen = fake.resource.requests.at(-1)!;
    expect(seen.url).toBe('/openai/v1/chat/completions');
    expect(seen.headers['api-key']).toBe(AZURE_API_KEY);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.json()).toEqual(ask('gpt-4o-deploy'));
  });

  it('uses the dated route with the deployment in the path and the api-version', async () => {
    await openai.chat.completions.create(ask('dated-gpt-4o'));
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/deployments/gpt-4o-deploy/chat/completions?api-version=2025-04-01-preview');
  });

  it("keeps the prompt filter's opening chunk from a streaming client and bills the usage, cached tokens included", async () => {
    const chunks = [];
    for await (const chunk of await openai.chat.completions.create({ ...ask('gpt-4o'), stream: true })) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((chunk) => chunk.id !== '' && chunk.object === 'chat.completion.chunk' && chunk.choices.length === 1)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('Hello from Azure.');
    expect(await lastLog('gpt-4o')).toMatchObject({ family: 'chat-completions', inputTokens: 1024, cacheReadTokens: 1024, outputTokens: 40, estimated: false });
  });

  it('keeps it from a client that asked for the usage chunk too, which then gets that chunk', async () => {
    const chunks = [];
    for await (const chunk of await openai.chat.completions.create({ ...ask('dated-gpt-4o'), stream: true, stream_options: { include_usage: true } })) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.id !== '')).toBe(true);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 2048, completion_tokens: 40 });
  });

  it('relays Azure throttling as a 429 with retry-after', async () => {
    const error = await openai.chat.completions.create(ask('gpt-4o', 'THROTTLE')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
  });

  it("gives a filtered prompt Azure's content_filter error", async () => {
    const error = (await openai.chat.completions.create(ask('gpt-4o', 'FILTER')).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.code).toBe('content_filter');
  });
});

describe('Responses client (pass-through)', () => {
  it('reaches the v1 responses route, plain and streamed', async () => {
    const response = await openai.responses.create({ model: 'gpt-4o', input: 'Hello' });
    expect(response.output_text).toBe('Hello from Azure.');
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/v1/responses');
    expect(fake.resource.requests.at(-1)!.json()).toMatchObject({ model: 'gpt-4o-deploy', input: 'Hello' });
    let text = '';
    for await (const event of await openai.responses.create({ model: 'o4-mini', input: 'Hello', stream: true })) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Hello from Azure.');
    expect(await lastLog('o4-mini')).toMatchObject({ family: 'responses', outputTokens: 40, estimated: false });
  });

  it("takes Codex's recorded requests untouched but for the deployment name", async () => {
    for (const file of ['02-gpt-6.1-sol-tool-first-turn.json', '08-gpt-5.1-codex-tool-first-turn.json']) {
      const body = JSON.parse(readFileSync(new URL(`../fixtures/agents/codex-0.169.0/${file}`, import.meta.url), 'utf8')).body;
      const { data, response } = await openai.responses.create({ ...body, model: 'gpt-4o', stream: true } as never).withResponse();
      expect(response.headers.get('x-switchyard-translation')).toBeNull();
      const types: string[] = [];
      for await (const event of data as unknown as AsyncIterable<{ type: string }>) types.push(event.type);
      expect(types.at(-1)).toBe('response.completed');
      expect(fake.resource.requests.at(-1)!.json()).toEqual({ ...body, model: 'gpt-4o-deploy', stream: true });
    }
  });

  it("relays throttling as a 429 with retry-after, and a filtered prompt as a 400 with Azure's message", async () => {
    const throttled = (await openai.responses.create({ model: 'gpt-4o', input: 'THROTTLE' }).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(throttled.status).toBe(429);
    expect(throttled.headers?.get('retry-after')).toBe('7');
    const filtered = (await openai.responses.create({ model: 'gpt-4o', input: 'FILTER' }).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    // The status, Azure's words and Azure's code, in the Responses error shape; the key never.
    expect(filtered.status).toBe(400);
    expect(filtered.message).toContain('content management policy');
    expect(filtered.code).toBe('content_filter');
    expect(filtered.type).toBe('invalid_request_error');
    expect(JSON.stringify(filtered.error)).not.toContain(AZURE_API_KEY);
    const streamed = (await openai.responses.create({ model: 'gpt-4o', input: 'FILTER', stream: true }).catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>;
    expect(streamed.code).toBe('content_filter');
  });

  it('reaches the dated responses route with the api-version', async () => {
    await openai.responses.create({ model: 'dated-gpt-4o', input: 'Hello' });
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/responses?api-version=2025-04-01-preview');
  });
});

describe('embeddings', () => {
  it("pass an OpenAI embeddings body to the deployment's embeddings route", async () => {
    const answer = await openai.embeddings.create({ model: 'gpt-4o', input: ['a', 'b'] });
    expect(answer.data).toHaveLength(2);
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/v1/embeddings');
    expect(fake.resource.requests.at(-1)!.json()).toMatchObject({ model: 'gpt-4o-deploy', input: ['a', 'b'] });
  });
});

describe('Messages client (translated)', () => {
  const message = (model: string, content: Anthropic.MessageParam['content'] = 'Hello') => ({ model, max_tokens: 500, messages: [{ role: 'user' as const, content }] });

  it('is translated to Chat Completions by default, plain and streamed', async () => {
    const answer = await anthropic.messages.create(message('gpt-4o'));
    expect(answer.content).toMatchObject([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(answer.usage).toMatchObject({ input_tokens: 1024, cache_read_input_tokens: 1024, output_tokens: 40 });
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/v1/chat/completions');
    const stream = anthropic.messages.stream(message('gpt-4o'));
    const final = await stream.finalMessage();
    expect(final.content).toMatchObject([{ type: 'text', text: 'Hello from Azure.' }]);
    expect(final.stop_reason).toBe('end_turn');
  });

  it('runs a tool round and takes an image', async () => {
    const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
    const first = await anthropic.messages.create({ ...message('gpt-4o', 'Weather in Paris?'), tools });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use')!;
    expect(call).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const second = await anthropic.messages.create({
      model: 'gpt-4o',
      max_tokens: 500,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] },
      ],
    });
    expect(second.content).toMatchObject([{ type: 'text', text: 'It is sunny in Paris.' }]);
    const seen = await anthropic.messages.create(
      message('gpt-4o', [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: RED_DOT } },
        { type: 'text', text: 'What is this?' },
      ]),
    );
    expect(seen.content).toMatchObject([{ type: 'text', text: 'I see a red square.' }]);
  });

  it('is translated to Responses when the channel says so, with the reasoning summary as thinking', async () => {
    const answer = await anthropic.messages.create({ ...message('resp-o4-mini'), max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(fake.resource.requests.at(-1)!.url).toBe('/openai/v1/responses');
    expect(answer.content[0]).toMatchObject({ type: 'thinking', thinking: 'The user greets me; answer briefly.' });
    expect(answer.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from Azure.' });
  });

  it('gives openai-responses reasoning back to OpenAI but never to Azure’s Responses API (encrypted reasoning is bound to its account)', async () => {
    const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
    const first = await anthropic.messages.create({ ...message('openai-o4'), max_tokens: 4000, thinking });
    const thought = first.content.find((block) => block.type === 'thinking');
    expect(thought?.type === 'thinking' && thought.signature).toMatch(/^swy1/);
    const history = (model: string) => ({
      model,
      max_tokens: 4000,
      thinking,
      messages: [
        { role: 'user' as const, content: 'Hello' },
        { role: 'assistant' as const, content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user' as const, content: 'And again' },
      ],
    });
    await anthropic.messages.create(history('openai-o4'));
    expect(openAiService.requests.at(-1)!.body.toString('utf8')).toContain('"encrypted_content":"OPENAI-ORG-ENCRYPTED"');
    await anthropic.messages.create(history('resp-o4-mini'));
    const sent = fake.resource.requests.at(-1)!;
    expect(sent.url).toBe('/openai/v1/responses');
    expect(sent.body.toString('utf8')).not.toContain('OPENAI-ORG-ENCRYPTED');
    expect((sent.json() as { input: Array<{ type?: string }> }).input.some((item) => item.type === 'reasoning')).toBe(false);
  });

  it('answers a filtered prompt and a filtered completion as a refusal, and throttling as a 429', async () => {
    expect((await anthropic.messages.create(message('gpt-4o', 'FILTER'))).stop_reason).toBe('refusal');
    expect((await anthropic.messages.stream(message('gpt-4o', 'FILTER')).finalMessage()).stop_reason).toBe('refusal');
    expect((await anthropic.messages.stream(message('gpt-4o', 'CUTOFF')).finalMessage()).stop_reason).toBe('refusal');
    expect((await anthropic.messages.create(message('resp-o4-mini', 'FILTER'))).stop_reason).toBe('refusal');
    expect((await anthropic.messages.stream(message('resp-o4-mini', 'CUTOFF')).finalMessage()).stop_reason).toBe('refusal');
    const error = (await anthropic.messages.create(message('gpt-4o', 'THROTTLE')).catch((caught: unknown) => caught)) as InstanceType<typeof Anthropic.APIError>;
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('7');
  });
});

describe('content-generation client (translated)', () => {
  it('answers plain and streamed, and a filtered prompt as a blocked prompt', async () => {
    const answer = await genai.models.generateContent({ model: 'gpt-4o', contents: 'Hello' });
    expect(answer.text).toBe('Hello from Azure.');
    let text = '';
    for await (const chunk of await genai.models.generateContentStream({ model: 'resp-o4-mini', contents: 'Hello' })) text += chunk.text ?? '';
    expect(text).toBe('Hello from Azure.');
    const filtered = await genai.models.generateContent({ model: 'gpt-4o', contents: 'FILTER' });
    // Nothing came: the prompt is reported blocked, as the service reports its own filter.
    expect(filtered.promptFeedback?.blockReason).toBe('SAFETY');
    expect(filtered.candidates ?? []).toEqual([]);
  });
});

describe('Entra ID client credentials', () => {
  it('fetches one token for concurrent requests and reuses it until shortly before it expires', async () => {
    const before = fake.tokenRequests;
    await Promise.all([1, 2, 3].map(() => openai.chat.completions.create(ask('entra-gpt-4o'))));
    await openai.chat.completions.create({ ...ask('entra-gpt-4o'), stream: true });
    expect(fake.tokenRequests - before).toBe(1);
    const seen = fake.resource.requests.at(-1)!;
    expect(seen.headers.authorization).toMatch(/^Bearer eyJ/);
    expect(seen.headers['api-key']).toBeUndefined();
  });

  it('serves a Responses client with the token too', async () => {
    const response = await openai.responses.create({ model: 'entra-gpt-4o', input: 'Hello' });
    expect(response.output_text).toBe('Hello from Azure.');
    expect(fake.resource.requests.at(-1)!.headers.authorization).toMatch(/^Bearer eyJ/);
  });

  it('fetches a new token once the last one expired (the resource refuses an expired token)', async () => {
    fake.tokenLifetime = 1;
    try {
      const { clearEntraTokens } = await import('../../src/upstreams/azure-openai/entra-token.js');
      clearEntraTokens();
      const before = fake.tokenRequests;
      await openai.chat.completions.create(ask('entra-gpt-4o'));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const completion = await openai.chat.completions.create(ask('entra-gpt-4o'));
      expect(completion.choices[0].message.content).toBe('Hello from Azure.');
      expect(fake.tokenRequests - before).toBe(2);
    } finally {
      fake.tokenLifetime = 3599;
    }
  });

  it('benches a channel whose client secret is refused and fails over, never showing the secret', async () => {
    const completion = await openai.chat.completions.create(ask('failover-gpt-4o'));
    expect(completion.choices[0].message.content).toBe('Hello from Azure.');
    const serving = gw.gateway.ctx.channels.serving('failover-gpt-4o');
    for (const name of ['azure-entra-bad', 'azure-bad-key']) expect(gw.gateway.ctx.health.isHealthy(serving.find((channel) => channel.name === name)!)).toBe(false);
    expect(fake.resource.requests.some((request) => request.headers['api-key'] === 'azure-key-wrong-0000000000')).toBe(true);
    const logs = JSON.stringify((await gw.admin('GET', '/logs?model=failover-gpt-4o')).body);
    expect(logs).not.toContain('entra-secret-wrong');
  });
});
