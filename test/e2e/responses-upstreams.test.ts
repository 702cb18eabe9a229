/**
 * Family E through real upstream wire formats, with the official clients:
 * - `openai-responses` channels (the native pass-through), in front of a second
 *   gateway instance that plays the provider (it speaks the dialect, stores
 *   responses and chains them), behind switchable recording proxies;
 * - an `anthropic` channel (translation) to the same stand-in's Messages API;
 * - an `openai-chat` channel (translation) replaying recorded answers.
 * Covers id mapping, chaining on the channel that holds the state, and
 * chaining after failover to another native channel or a translating one.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, isStepCount, jsonSchema, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type Proxy } from '../families/responses/proxy.js';
import { checkStreamDiscipline, streamEvents } from '../families/responses/support.js';
import { startFakeUpstream, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureText, sseReply } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let provider: TestGateway;
let primary: Proxy;
let secondary: Proxy;
let claude: Proxy;
let chat: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  strict: true,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

beforeAll(async () => {
  provider = await startGateway({ config: { keys: [{ name: 'provider', key: 'sk-provider-key' }] } });
  primary = await startProxy(provider.url);
  secondary = await startProxy(provider.url);
  claude = await startProxy(provider.url);
  chat = await startFakeUpstream((request: RecordedRequest) => {
    const body = request.json<{ model: string }>();
    const file = body.model.replace(/^fixture\//, '');
    if (file.endsWith('.chunks.txt')) return sseReply('openai-chat', file, { pieceBytes: 61 });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('openai-chat', file) };
  });
  const native = (name: string, proxy: Proxy, priority: number, models: string[]) => ({
    name,
    type: 'openai-responses',
    baseUrl: `${proxy.origin}/v1`,
    apiKey: 'sk-provider-key',
    models,
    priority,
  });
  gw = await startGateway({
    config: {
      channels: [
        native('native-primary', primary, 10, ['gpt-native', 'mixed-model']),
        native('native-secondary', secondary, 0, ['gpt-native']),
        { name: 'claude', type: 'anthropic', baseUrl: claude.origin, apiKey: 'sk-provider-key', models: ['claude-sim', 'mixed-model'], priority: 0 },
        { name: 'chat', type: 'openai-chat', baseUrl: `${chat.origin}/v1`, apiKey: 'sk-upstream-chat', models: ['fixture/*'] },
      ],
      keys: [{ name: 'client', key: 'sk-client-responses' }],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-responses', maxRetries: 0 });
}, 60_000);

afterEach(() => {
  primary.down = false;
  secondary.down = false;
  claude.down = false;
});

afterAll(async () => {
  await gw?.close();
  for (const upstream of [primary, secondary, claude, chat]) await upstream?.close();
  await provider?.close();
});

/** The AI SDK's hosted web search tool (sent as a Responses `web_search` tool). */
const openaiWebSearch = () => createOpenAI({ apiKey: 'unused' }).tools.webSearch({});

const lastBody = (proxy: Proxy) => proxy.requests.at(-1)!.json<Record<string, any>>();

describe('through an openai-responses upstream (native pass-through)', () => {
  it('forwards the body untouched with the channel credential, and answers with its own id', async () => {
    const body = { model: 'gpt-native', input: 'Hello native', metadata: { a: '1' }, prompt_cache_key: 'k-1' };
    const response = await client.responses.create(body);
    const seen = primary.requests.at(-1)!;
    expect(seen.url).toBe('/v1/responses');
    expect(seen.headers.authorization).toBe('Bearer sk-provider-key');
    expect(seen.json()).toEqual(body);
    const upstreamId = JSON.parse(primary.answers.at(-1)!).id as string;
    expect(response.id).toMatch(/^resp_/);
    expect(response.id).not.toBe(upstreamId);
    expect(response.output_text).toContain('Hello native');
    expect((await client.responses.retrieve(response.id)).output_text).toBe(response.output_text);
  });

  it('streams with stream().finalResponse(), the ids mapped in every lifecycle event', async () => {
    const stream = client.responses.stream({ model: 'gpt-native', input: 'Stream natively' });
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toContain('Stream natively');
    const upstreamAnswer = primary.answers.at(-1)!;
    const upstreamId = /"id":"(resp_[^"]+)"/.exec(upstreamAnswer)![1];
    expect(final.id).not.toBe(upstreamId);
    const events = await streamEvents(gw.url, 'sk-client-responses', { model: 'gpt-native', input: 'raw events' });
    checkStreamDiscipline(events);
    const ids = new Set(events.filter((event) => event.data.response).map((event) => event.data.response.id));
    expect(ids.size).toBe(1);
    expect(JSON.stringify(events)).not.toContain(/"id":"(resp_[^"]+)"/.exec(primary.answers.at(-1)!)![1]);
  });

  it('chains on the channel that holds the state by the upstream id', async () => {
    const first = await client.responses.create({ model: 'gpt-native', input: 'Remember the word tangerine' });
    const upstreamFirst = JSON.parse(primary.answers.at(-1)!).id as string;
    const second = await client.responses.create({ model: 'gpt-native', input: 'Which word?', previous_response_id: first.id });
    expect(lastBody(primary)).toMatchObject({ previous_response_id: upstreamFirst, input: 'Which word?' });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toContain('Which word?');
  });

  it('chains after failover to another native channel by sending the conversation as items', async () => {
    const first = await client.responses.create({ model: 'gpt-native', input: 'Use get_weather for Paris', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    primary.down = true;
    const second = await client.responses
      .stream({
        model: 'gpt-native',
        tools: [weatherTool],
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: 'rain, 12 degrees' }],
      })
      .finalResponse();
    expect(second.status).toBe('completed');
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toContain('rain, 12 degrees');
    const sent = lastBody(secondary);
    expect(sent.previous_response_id).toBeUndefined();
    const types = sent.input.map((item: { type?: string; role?: string }) => item.type ?? item.role);
    expect(types).toEqual(['message', 'message', 'function_call', 'function_call_output']);
    // Ids the other channel never issued are not sent to it.
    expect(sent.input[2].id).toBeUndefined();
  });

  it('chains after failover to a translating upstream', async () => {
    const first = await client.responses.create({ model: 'mixed-model', input: 'My name is Grace' });
    primary.down = true;
    const second = await client.responses.create({ model: 'mixed-model', input: 'And my name?', previous_response_id: first.id });
    expect(second.output_text).toContain('And my name?');
    const sent = lastBody(claude);
    expect(sent.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages[0])).toContain('My name is Grace');
  });

  it('replaces item references the channel cannot resolve by the stored items', async () => {
    const first = await client.responses.create({ model: 'gpt-native', input: 'first turn' });
    primary.down = true;
    await client.responses.create({
      model: 'gpt-native',
      input: [
        { type: 'item_reference', id: first.output[0].id! },
        { role: 'user', content: 'next' },
      ] as never,
    });
    const sent = lastBody(secondary);
    expect(sent.input[0]).toMatchObject({ type: 'message', role: 'assistant' });
    expect(sent.input[0].content).toContain('first turn');
  });

  it('answers json_schema output and lists the stored input items', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const response = await client.responses.create({
      model: 'gpt-native',
      input: [{ role: 'user', content: 'Name a city' }],
      text: { format: { type: 'json_schema', name: 'place', schema, strict: true } },
    });
    expect(typeof JSON.parse(response.output_text).city).toBe('string');
    const items = await client.responses.inputItems.list(response.id);
    expect(items.data).toHaveLength(1);
    await client.responses.delete(response.id);
    await expect(client.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('serves @ai-sdk/openai: plain, streaming and a tool loop', async () => {
    const openai = createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-responses' });
    const plain = await generateText({ model: openai('gpt-native'), prompt: 'AI SDK native', maxRetries: 0 });
    expect(plain.text).toContain('AI SDK native');
    const streamed = streamText({ model: openai('gpt-native'), prompt: 'AI SDK native stream', maxRetries: 0 });
    for await (const part of streamed.fullStream) if (part.type === 'error') throw part.error;
    expect(await streamed.finishReason).toBe('stop');
    const calls: unknown[] = [];
    const looped = await generateText({
      model: openai('gpt-native'),
      prompt: 'Please call get_weather for Oslo',
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools: {
        get_weather: tool({
          description: 'Current weather',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
          execute: async (input) => {
            calls.push(input);
            return 'foggy';
          },
        }),
      },
    });
    expect(calls).toHaveLength(1);
    expect(looped.text).toContain('foggy');
    // The second step named the first one's message by reference; the channel holding it resolved it.
    expect(JSON.stringify(lastBody(primary).input)).toContain('item_reference');
  });

  it('reports errors in the OpenAI shape, to both clients', async () => {
    const failure = await client.responses.create({ model: 'gpt-native', input: 'x', temperature: 7 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    primary.down = true;
    secondary.down = true;
    const down = await client.responses.create({ model: 'gpt-native', input: 'x' }).catch((error: unknown) => error);
    // Every channel out of capacity: the gateway's 529, which the client treats as a server error.
    expect(down).toBeInstanceOf(OpenAI.InternalServerError);
    expect((down as InstanceType<typeof OpenAI.APIError>).status).toBe(529);
    const openai = createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-responses' });
    const sdkFailure = await generateText({ model: openai('gpt-native'), prompt: 'x', maxRetries: 0 }).catch((error) => error);
    expect(APICallError.isInstance(sdkFailure)).toBe(true);
    expect(sdkFailure.statusCode).toBe(529);
  });
});

describe('through an anthropic upstream (translation)', () => {
  it('runs a function-call round trip chained by previous_response_id', async () => {
    const first = await client.responses.create({ model: 'claude-sim', input: 'Use get_weather for Kyoto', tools: [weatherTool] });
    const call = first.output.find((item) => item.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('expected a function call');
    expect(lastBody(claude).tools[0]).toMatchObject({ name: 'get_weather', strict: true });
    const second = await client.responses.create({
      model: 'claude-sim',
      tools: [weatherTool],
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'clear, 20 degrees' }],
    });
    expect(second.output_text).toContain('clear, 20 degrees');
    const sent = lastBody(claude).messages;
    expect(sent.at(-2).content.some((block: { type: string }) => block.type === 'tool_use')).toBe(true);
    expect(sent.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call.call_id });
  });

  it('keeps thinking and its signature across turns, streamed', async () => {
    const request = {
      model: 'claude-sim',
      input: 'Use get_weather for Lyon',
      tools: [weatherTool],
      max_output_tokens: 3000,
      reasoning: { effort: 'low' as const, summary: 'auto' as const },
    };
    const events = await streamEvents(gw.url, 'sk-client-responses', request);
    checkStreamDiscipline(events);
    const first = events.at(-1)!.data.response;
    expect(first.output.map((item: { type: string }) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(lastBody(claude).thinking).toMatchObject({ type: 'enabled' });
    const call = first.output[2];
    await client.responses.create({
      ...request,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'warm' }],
    });
    const thinking = lastBody(claude).messages[1].content[0];
    expect(thinking.type).toBe('thinking');
    expect(thinking.signature.length).toBeGreaterThan(0);
    expect(thinking.thinking).toBe(first.output[0].summary[0].text);
  });

  it('serves @ai-sdk/openai with a tool loop', async () => {
    const calls: unknown[] = [];
    const openai = createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-responses' });
    const result = await generateText({
      model: openai('claude-sim'),
      prompt: 'Please call get_weather for Rome',
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools: {
        get_weather: tool({
          description: 'Current weather',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
          execute: async (input) => {
            calls.push(input);
            return 'sunny';
          },
        }),
      },
    });
    expect(calls).toHaveLength(1);
    expect(result.text).toContain('sunny');
  });

  it('serves @ai-sdk/openai plain and streamed, and reports errors', async () => {
    const openai = createOpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-responses' });
    const plain = await generateText({ model: openai('claude-sim'), prompt: 'AI SDK via anthropic', maxRetries: 0 });
    expect(plain.text).toContain('AI SDK via anthropic');
    const streamed = streamText({ model: openai('claude-sim'), prompt: 'AI SDK stream via anthropic', maxRetries: 0 });
    for await (const part of streamed.fullStream) if (part.type === 'error') throw part.error;
    expect(await streamed.text).toContain('AI SDK stream via anthropic');
    expect(await streamed.finishReason).toBe('stop');
    const withSearch = await generateText({ model: openai('claude-sim'), prompt: 'x', maxRetries: 0, tools: { search: openaiWebSearch() } });
    expect(withSearch.response.headers?.['x-switchyard-translation']).toMatch(/web_search/);
    const failure = await generateText({
      model: openai('claude-sim'),
      prompt: 'x',
      maxRetries: 0,
      providerOptions: { openai: { logprobs: 3 } },
    }).catch((error) => error);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure.statusCode).toBe(400);
    expect(failure.message).toMatch(/logprobs/);
  });

  it('leaves out a hosted tool it has no equivalent of, and refuses it by name when tool_choice forces it', async () => {
    const { response } = await client.responses.create({ model: 'claude-sim', input: 'find it', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }).withResponse();
    expect(response.headers.get('x-switchyard-translation')).toBe('ignored=tool file_search');
    const failure = await client.responses
      .create({ model: 'claude-sim', input: 'find it', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }], tool_choice: { type: 'file_search' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as Error).message).toContain('file_search');
  });
});

describe('through an openai-chat upstream (translation of recorded answers)', () => {
  it('answers plain text and streams', async () => {
    const plain = await client.responses.create({ model: 'fixture/openai-text.json', input: 'Hello', instructions: 'Be kind' });
    expect(plain.status).toBe('completed');
    expect(plain.output_text.length).toBeGreaterThan(0);
    expect(chat.requests.at(-1)!.json<{ messages: unknown[] }>().messages).toEqual([
      { role: 'system', content: 'Be kind' },
      { role: 'user', content: 'Hello' },
    ]);
    const streamed = await client.responses.stream({ model: 'fixture/openai-text.chunks.txt', input: 'Hello' }).finalResponse();
    expect(streamed.status).toBe('completed');
    expect(streamed.usage!.output_tokens).toBeGreaterThan(0);
  });

  it('translates tool calls and reasoning', async () => {
    const tools = await client.responses.stream({ model: 'fixture/alibaba-tool-call.chunks.txt', input: 'weather?' }).finalResponse();
    expect(tools.output.some((item) => item.type === 'function_call')).toBe(true);
    const reasoning = await client.responses.stream({ model: 'fixture/deepseek-reasoning.chunks.txt', input: 'why?', reasoning: { effort: 'medium', summary: 'auto' } }).finalResponse();
    expect(reasoning.output[0].type).toBe('reasoning');
    expect(reasoning.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });
});
