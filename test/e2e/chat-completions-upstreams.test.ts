/**
 * Family F through real upstream wire formats, each a loopback server
 * replaying recorded answers of the real services: an `openai-chat` channel
 * (pass-through: the client's body arrives deep-equal, model mapping aside)
 * and `anthropic`, `gemini` and `openai-responses` channels (translation).
 * The model name picks the recorded file.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureFiles, fixtureText, sseReply, type FixtureDialect } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let chatUpstream: FakeUpstream;
let anthropicUpstream: FakeUpstream;
let responsesUpstream: FakeUpstream;
let geminiUpstream: FakeUpstream;
let gw: TestGateway;
let client: OpenAI;

function replayByModel(dialect: FixtureDialect, prefix: string) {
  return (request: RecordedRequest): FakeReply => {
    const file = request.json<{ model: string }>().model.replace(prefix, '');
    if (file.endsWith('.chunks.txt')) return sseReply(dialect, file, { pieceBytes: 61 });
    const status = file.includes('error') ? 400 : 200;
    return { status, headers: { 'content-type': 'application/json' }, body: fixtureText(dialect, file) };
  };
}

function geminiReplay(request: RecordedRequest): FakeReply {
  const [, name, method] = /\/models\/([^:]+):(\w+)/.exec(request.url)!;
  if (method === 'streamGenerateContent') return sseReply('gemini', `${decodeURIComponent(name)}.chunks.txt`);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText('gemini', `${decodeURIComponent(name)}.json`) };
}

beforeAll(async () => {
  chatUpstream = await startFakeUpstream(replayByModel('openai-chat', 'chat/'));
  anthropicUpstream = await startFakeUpstream(replayByModel('anthropic-messages', 'claude/'));
  responsesUpstream = await startFakeUpstream(replayByModel('openai-responses', 'resp/'));
  geminiUpstream = await startFakeUpstream(geminiReplay);
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'chat',
          type: 'openai-chat',
          baseUrl: `${chatUpstream.origin}/v1`,
          apiKey: 'sk-upstream-chat',
          models: ['chat/*', 'mapped-chat'],
          modelMapping: { 'mapped-chat': 'chat/openai-text.json' },
        },
        { name: 'anthropic', type: 'anthropic', baseUrl: anthropicUpstream.origin, apiKey: 'sk-upstream-anthropic', models: ['claude/*'] },
        { name: 'responses', type: 'openai-responses', baseUrl: `${responsesUpstream.origin}/v1`, apiKey: 'sk-upstream-responses', models: ['resp/*'] },
        { name: 'gemini', type: 'gemini', baseUrl: geminiUpstream.origin, apiKey: 'AIza-upstream', models: ['google-*'] },
      ],
      keys: [{ name: 'client', key: 'sk-client-chat' }],
    },
  });
  client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: 'sk-client-chat', maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await Promise.all([chatUpstream, anthropicUpstream, responsesUpstream, geminiUpstream].map((upstream) => upstream?.close()));
});

const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hello' }] });

describe('openai-chat channel (pass-through)', () => {
  it('forwards the body untouched, unknown and answer-changing fields included, with the channel credential', async () => {
    const body = { ...ask('chat/openai-text.json'), n: 2, logprobs: true, top_logprobs: 3, vendor_extension: { a: 1 }, metadata: { run: 'x' } };
    const completion = await client.chat.completions.create(body as never);
    expect(completion.choices[0].message.content).toBeTruthy();
    const seen = chatUpstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-chat');
    expect(seen.json()).toEqual(body);
  });

  it('rewrites only the model name when the channel maps it', async () => {
    await client.chat.completions.create(ask('mapped-chat'));
    expect(chatUpstream.requests.at(-1)!.json()).toEqual(ask('chat/openai-text.json'));
  });

  it('asks the upstream for usage on a stream and keeps that chunk from a client that did not ask', async () => {
    const stream = await client.chat.completions.create({ ...ask('chat/openai-text.chunks.txt'), stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chatUpstream.requests.at(-1)!.json()).toEqual({ ...ask('chat/openai-text.chunks.txt'), stream: true, stream_options: { include_usage: true } });
    expect(chunks.every((chunk) => chunk.choices.length === 1)).toBe(true);
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
    const logs = await gw.admin('GET', '/logs?model=chat/openai-text.chunks.txt');
    expect(logs.body.data[0]).toMatchObject({ family: 'chat-completions', inputTokens: 16, outputTokens: 300, estimated: false });
  });

  it('relays the usage chunk to a client that asked, body untouched', async () => {
    const body = { ...ask('chat/openai-text.chunks.txt'), stream: true as const, stream_options: { include_usage: true } };
    const chunks = [];
    for await (const chunk of await client.chat.completions.create(body)) chunks.push(chunk);
    expect(chatUpstream.requests.at(-1)!.json()).toEqual(body);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 300 });
  });

  it('answers an upstream refusal with its status, message, code and param, in the OpenAI shape', async () => {
    const error = await client.chat.completions.create(ask('chat/reasoning-model-legacy-parameter-error.json')).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' });
    expect(error.message).toContain("Use 'max_completion_tokens' instead");
  });

  const replies = fixtureFiles('openai-chat').filter((file) => !file.includes('error'));
  it.each(replies)('the official client reads the recorded answer %s', async (file) => {
    if (file.endsWith('.chunks.txt')) {
      const final = await client.chat.completions.stream(ask(`chat/${file}`)).finalChatCompletion();
      expect(final.choices[0].finish_reason).toBeTruthy();
    } else {
      const completion = await client.chat.completions.create(ask(`chat/${file}`));
      expect(completion.choices.length).toBeGreaterThan(0);
    }
  });
});

describe('anthropic channel (translation)', () => {
  it('renders text, usage and the translation header', async () => {
    const { data, response } = await client.chat.completions.create(ask('claude/anthropic-text.json')).withResponse();
    expect(data.choices[0].message.content).toBeTruthy();
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const sent = anthropicUpstream.requests.at(-1)!.json<Record<string, unknown>>();
    expect(sent).toMatchObject({ model: 'claude/anthropic-text.json', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] });
  });

  it('streams tool calls as indexed deltas', async () => {
    const final = await client.chat.completions.stream(ask('claude/anthropic-tool-no-args.chunks.txt')).finalChatCompletion();
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(final.choices[0].message.tool_calls![0].type).toBe('function');
  });

  it('surfaces thinking as reasoning_content', async () => {
    const completion = await client.chat.completions.create(ask('claude/anthropic-claude-opus-5-reasoning-high.1.json'));
    expect((completion.choices[0].message as { reasoning_content?: string }).reasoning_content).toBeTruthy();
  });

  it('runs a thinking tool loop: the turn after the call goes with thinking off, and the header says so', async () => {
    const { response } = await client.chat.completions
      .create({
        model: 'claude/anthropic-text.json',
        reasoning_effort: 'high',
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      })
      .withResponse();
    const sent = anthropicUpstream.requests.at(-1)!.json<Record<string, unknown>>();
    expect(sent.thinking).toBeUndefined();
    expect(response.headers.get('x-switchyard-translation')).toContain('thinking');
  });

  it('refuses an answer-changing field the channel cannot honour, naming it', async () => {
    const error = await client.chat.completions.create({ ...ask('claude/anthropic-text.json'), logprobs: true }).catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toContain('logprobs');
  });
});

describe('gemini and openai-responses channels (translation)', () => {
  it('gemini: plain text and a streamed tool call', async () => {
    const text = await client.chat.completions.create(ask('google-text'));
    expect(text.choices[0].message.content).toBeTruthy();
    const tool = await client.chat.completions.stream(ask('google-tool-call')).finalChatCompletion();
    expect(tool.choices[0].finish_reason).toBe('tool_calls');
  });

  it('openai-responses: a plain answer and a streamed one', async () => {
    const plain = await client.chat.completions.create(ask('resp/openai-pdf-input-file.1.json'));
    expect(plain.choices[0].message.content).toBeTruthy();
    const streamed = await client.chat.completions.stream(ask('resp/openai-pdf-input-file.1.chunks.txt')).finalChatCompletion();
    expect(streamed.choices[0].message.content).toBeTruthy();
  });
});
