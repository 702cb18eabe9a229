/**
 * Every client family through a `bedrock` channel's Anthropic model
 * (InvokeModel), with the official SDKs, against a loopback Bedrock that
 * recomputes each request's Signature Version 4 (test/support/fake-bedrock.ts):
 * Messages clients pass through (the body as Bedrock takes it, betas moved
 * into it and filtered); every other family is translated. Plain, streamed
 * (AWS event streams), a tool round, an image in, reasoning and cache usage;
 * a stream exception; temporary credentials and a Bedrock API key; a key whose
 * signature the service refuses benches its channel and the request fails over.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockError, chunk, FAKE_BEDROCK_COUNT, startFakeBedrock, type FakeBedrock } from '../support/fake-bedrock.js';
import { startGateway, type TestGateway } from '../support/gateway.js';
import { sdkClients } from '../support/sdk-clients.js';

const CLIENT_KEY = 'sk-client-bedrock';
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let fake: FakeBedrock;
let gw: TestGateway;
let anthropic: Anthropic;
let openai: OpenAI;
let genai: GoogleGenAI;

beforeAll(async () => {
  fake = await startFakeBedrock();
  const settings = { region: fake.region, endpoint: fake.origin };
  const mapped = (model: string) => ({ models: [model], modelMapping: { [model]: CLAUDE } });
  gw = await startGateway({
    config: {
      channels: [
        { name: 'bedrock', type: 'bedrock', apiKey: fake.accessKey, ...mapped('claude-bedrock'), settings },
        { name: 'bedrock-temporary', type: 'bedrock', apiKey: fake.sessionKey, ...mapped('claude-temporary'), settings },
        { name: 'bedrock-api-key', type: 'bedrock', apiKey: fake.apiKey, ...mapped('claude-api-key'), settings: { ...settings, auth: 'api-key' } },
        { name: 'bedrock-betas', type: 'bedrock', apiKey: fake.accessKey, ...mapped('claude-own-betas'), settings: { ...settings, betas: { allow: ['context-1m-*'] } } },
        // Tried first for its model; its secret is not the key id's.
        { name: 'bedrock-wrong-secret', type: 'bedrock', priority: 10, apiKey: fake.wrongSecretKey, models: ['claude-failover'], modelMapping: { 'claude-failover': CLAUDE }, settings },
        { name: 'bedrock-failover', type: 'bedrock', apiKey: fake.accessKey, ...mapped('claude-failover'), settings },
        { name: 'bedrock-nova', type: 'bedrock', apiKey: fake.sessionKey, models: ['nova'], modelMapping: { nova: 'amazon.nova-pro-v1:0' }, settings },
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

describe('Messages clients (pass-through over InvokeModel)', () => {
  it('plain: the body as Bedrock takes it, betas moved into it and filtered, cache usage logged', async () => {
    const message = await anthropic.messages.create(
      { model: 'claude-bedrock', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] },
      { headers: { 'anthropic-beta': 'claude-code-20250219,context-1m-2025-08-07,interleaved-thinking-2025-05-14' } },
    );
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Claude on Bedrock.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 12, cache_read_input_tokens: 8, cache_creation_input_tokens: 2, output_tokens: 6 });
    expect(last()).toMatchObject({ model: CLAUDE, operation: 'invoke' });
    expect(last().url).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
    expect(last().body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['context-1m-2025-08-07', 'interleaved-thinking-2025-05-14'],
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(Object.keys(last().headers).filter((name) => name.startsWith('anthropic-'))).toEqual([]);
    expect(last().headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDSWITCHYARDTEST\/\d{8}\/us-west-2\/bedrock\/aws4_request/);
    const logs = await gw.admin('GET', '/logs?model=claude-bedrock');
    expect(logs.body.data[0]).toMatchObject({ inputTokens: 12, outputTokens: 6, cacheReadTokens: 8, cacheWriteTokens: 2, triedChannels: ['bedrock'] });
  });

  it('stream (an AWS event stream, re-framed as server-sent events), call a tool with thinking, then an image and the result', async () => {
    const stream = anthropic.messages.stream({
      model: 'claude-bedrock',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const first = await stream.finalMessage();
    expect(last().operation).toBe('invoke-with-response-stream');
    expect(last().body).not.toHaveProperty('stream');
    expect(last().headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(first.usage).toMatchObject({ input_tokens: 12, output_tokens: 6, cache_read_input_tokens: 8 });
    const call = first.content[1] as Anthropic.ToolUseBlock;
    const second = await anthropic.messages.create({
      model: 'claude-bedrock',
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
        { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '21°C' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'I see an image.' }]);
    // The thinking block and its signature went back as the client sent them.
    expect(last().body.messages[1].content[0]).toMatchObject({ type: 'thinking', signature: 'EqQBCkYIBRgCKkD' });
  });

  it('the raw stream a client reads is Anthropic’s server-sent events, Bedrock’s metrics kept on message_stop', async () => {
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-bedrock', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(text).toContain('event: message_stop\ndata: {"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":12');
  });

  it('a channel’s own betas lists replace the built-in ones', async () => {
    await anthropic.messages.create(
      { model: 'claude-own-betas', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] },
      { headers: { 'anthropic-beta': 'context-1m-2025-08-07,interleaved-thinking-2025-05-14' } },
    );
    expect(last().body.anthropic_beta).toEqual(['context-1m-2025-08-07']);
  });

  it('a stream exception reaches the client as Anthropic’s error event', async () => {
    const { events } = {
      events: [
        chunk({ type: 'message_start', message: { id: 'msg_x', type: 'message', role: 'assistant', model: CLAUDE, content: [], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } } }),
      ],
    };
    fake.script({ status: 200, events: [...events, { type: 'throttlingException', payload: { message: 'Too many tokens, please wait before trying again.' }, exception: true }] });
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-bedrock', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    const text = await res.text();
    expect(text).toContain('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"throttlingException: Too many tokens, please wait before trying again."}}');
  });

  it('Bedrock’s own refusal keeps its status and message, in the Messages error shape', async () => {
    fake.script(bedrockError(400, 'ValidationException', 'messages.0.content: prompt is too long'));
    const refused = await anthropic.messages.create({ model: 'claude-bedrock', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('prompt is too long') },
    });
  });

  it('counts by CountTokens: the InvokeModel body, base64, signed, for the model the inference profile names', async () => {
    const counted = await anthropic.messages.countTokens(
      { model: 'claude-bedrock', system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] },
      { headers: { 'anthropic-beta': 'claude-code-20250219,context-1m-2025-08-07' } },
    );
    expect(counted.input_tokens).toBe(FAKE_BEDROCK_COUNT);
    expect(last()).toMatchObject({ operation: 'count-tokens', model: 'anthropic.claude-sonnet-4-5-20250929-v1:0' });
    const invoke = JSON.parse(Buffer.from(last().body.input.invokeModel.body, 'base64').toString('utf8'));
    expect(invoke).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello there' }],
      max_tokens: 4096,
      anthropic_beta: ['context-1m-2025-08-07'],
    });
    const res = await fetch(`${gw.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'Hello there' }] }),
    });
    expect(res.headers.get('x-switchyard-estimated')).toBeNull();
    expect(await res.json()).toEqual({ input_tokens: FAKE_BEDROCK_COUNT });
  });

  it('a model CountTokens does not serve is counted by the gateway’s estimate', async () => {
    fake.script(bedrockError(400, 'ValidationException', "The provided model doesn't support counting tokens."));
    const res = await fetch(`${gw.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': CLIENT_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'Hello there' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-switchyard-estimated')).toBe('true');
    expect(((await res.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect(last().operation).toBe('count-tokens');
  });
});

describe('Claude Code’s recorded requests', () => {
  const recorded = (file: string) =>
    JSON.parse(readFileSync(new URL(`../fixtures/agents/claude-code-2.1.328/${file}`, import.meta.url), 'utf8')) as { headers: Record<string, string>; body: Record<string, unknown> };

  it.each(['01-claude-opus-5-plain-turn.json', '02-claude-opus-5-tool-first-turn.json', '03-claude-opus-5-tool-result-turn.json'])(
    '%s reaches InvokeModel with the body as sent, betas Bedrock refuses left out',
    async (file) => {
      const { headers, body } = recorded(file);
      const sent = { ...headers, 'x-api-key': CLIENT_KEY } as Record<string, string>;
      delete sent['accept-encoding'];
      const res = await fetch(`${gw.url}/v1/messages?beta=true`, { method: 'POST', headers: sent, body: JSON.stringify({ ...body, model: 'claude-bedrock' }) });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toContain('event: message_stop');
      const { model: _model, stream: _stream, ...rest } = body;
      const { anthropic_version, anthropic_beta, ...seen } = last().body;
      expect(seen).toEqual(rest);
      expect(anthropic_version).toBe('bedrock-2023-05-31');
      expect(anthropic_beta).toEqual(['interleaved-thinking-2025-05-14', 'context-management-2025-06-27', 'mid-conversation-tool-changes-2026-07-01', 'effort-2025-11-24']);
    },
  );
});

describe('other clients (translated to the Messages format)', () => {
  it('Chat Completions: plain, streamed, a tool call, cache usage', async () => {
    const completion = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]!.message.content).toBe('Hello from Claude on Bedrock.');
    expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(8);
    expect(last().body.anthropic_version).toBe('bedrock-2023-05-31');
    let streamed = '';
    for await (const part of await openai.chat.completions.create({ model: 'claude-bedrock', stream: true, messages: [{ role: 'user', content: 'Hello' }] }))
      streamed += part.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('Hello from Claude on Bedrock.');
    expect(last().operation).toBe('invoke-with-response-stream');
    const tooled = await openai.chat.completions.create({
      model: 'claude-bedrock',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.input_schema } }],
    });
    expect(tooled.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('Responses with reasoning, plain and streamed', async () => {
    const response = await openai.responses.create({ model: 'claude-bedrock', input: 'Hello', reasoning: { effort: 'low' } });
    expect(response.output_text).toBe('Hello from Claude on Bedrock.');
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(last().body.thinking).toMatchObject({ type: 'enabled' });
    const stream = await openai.responses.create({ model: 'claude-bedrock', input: 'Hello', stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text).toBe('Hello from Claude on Bedrock.');
  });

  it('content generation, plain and streamed', async () => {
    const answer = await genai.models.generateContent({ model: 'claude-bedrock', contents: 'Hello' });
    expect(answer.text).toBe('Hello from Claude on Bedrock.');
    let text = '';
    for await (const part of await genai.models.generateContentStream({ model: 'claude-bedrock', contents: 'Hello' })) text += part.text ?? '';
    expect(text).toBe('Hello from Claude on Bedrock.');
  });
});

describe('other models (Converse), signed like InvokeModel', () => {
  it('a Nova model answers every family through Converse and ConverseStream', async () => {
    const completion = await openai.chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hello' }] });
    expect(completion.choices[0]!.message.content).toBeTruthy();
    expect(last()).toMatchObject({ model: 'amazon.nova-pro-v1:0', operation: 'converse' });
    expect(last().headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2VjEFAKE//session+token=');
    let streamed = '';
    for await (const part of await openai.chat.completions.create({ model: 'nova', stream: true, messages: [{ role: 'user', content: 'Hello' }] })) streamed += part.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(completion.choices[0]!.message.content);
    expect(last().operation).toBe('converse-stream');
    const message = await anthropic.messages.create({ model: 'nova', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: completion.choices[0]!.message.content });
    expect(last().body.messages[0].content[0]).toEqual({ text: 'Hello' });
  });
});

describe('credentials', () => {
  it('temporary credentials sign with their session token; a Bedrock API key goes as a Bearer token', async () => {
    const temporary = await anthropic.messages.create({ model: 'claude-temporary', max_tokens: 10, messages: [{ role: 'user', content: 'Hello' }] });
    expect(temporary.content).toEqual([{ type: 'text', text: 'Hello from Claude on Bedrock.' }]);
    expect(last().headers['x-amz-security-token']).toBe('IQoJb3JpZ2luX2VjEFAKE//session+token=');
    const bearer = await openai.chat.completions.create({ model: 'claude-api-key', messages: [{ role: 'user', content: 'Hello' }] });
    expect(bearer.choices[0]!.message.content).toBe('Hello from Claude on Bedrock.');
    expect(last().headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  it('a key whose signature Bedrock refuses benches its channel; the request fails over, and no secret is logged', async () => {
    const refusedBefore = fake.refusals.length;
    const answer = await openai.chat.completions.create({ model: 'claude-failover', messages: [{ role: 'user', content: 'Hello' }] });
    expect(answer.choices[0]!.message.content).toBe('Hello from Claude on Bedrock.');
    expect(fake.refusals.slice(refusedBefore)).toEqual([expect.stringMatching(/signature we calculated does not match/)]);
    const logs = await gw.admin('GET', '/logs?model=claude-failover');
    expect(logs.body.data[0].triedChannels).toEqual(['bedrock-wrong-secret', 'bedrock-failover']);
    expect(JSON.stringify(logs.body.data[0])).not.toContain('not-the-secret');
    await openai.chat.completions.create({ model: 'claude-failover', messages: [{ role: 'user', content: 'Hello' }] });
    expect(fake.refusals.length - refusedBefore).toBe(1);
  });

  it('the console’s channel form gets the type’s settings', async () => {
    const types = await gw.admin('GET', '/channel-types');
    const bedrock = types.body.data.find((entry: { type: string }) => entry.type === 'bedrock');
    expect(bedrock).toMatchObject({ serves: ['chat'], needs: { baseUrl: false, credentials: true } });
    expect(Object.keys(bedrock.settings.properties)).toEqual(expect.arrayContaining(['region', 'endpoint', 'auth', 'anthropicApi', 'betas']));
  });
});
