/**
 * The official Messages client through real upstream wire formats: an
 * anthropic channel (pass-through) and an openai-chat channel (translation),
 * each a loopback server replaying recorded responses of the real services.
 * The model name picks the recorded file: `fixture/<file>`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';
import { fixtureText, sseReply, type FixtureDialect } from '../upstreams/support/fixtures.js';
import { startGateway, type TestGateway } from '../support/gateway.js';

let anthropicUpstream: FakeUpstream;
let openAiUpstream: FakeUpstream;
let gw: TestGateway;
let client: Anthropic;

function replayByModel(dialect: FixtureDialect) {
  return (request: RecordedRequest): FakeReply => {
    const body = request.json<{ model: string; stream?: boolean }>();
    const file = body.model.replace(/^fixture\//, '');
    if (file.endsWith('.chunks.txt')) return sseReply(dialect, file, { pieceBytes: 97 });
    return { status: 200, headers: { 'content-type': 'application/json' }, body: fixtureText(dialect, file) };
  };
}

beforeAll(async () => {
  anthropicUpstream = await startFakeUpstream(replayByModel('anthropic-messages'));
  openAiUpstream = await startFakeUpstream(replayByModel('openai-chat'));
  gw = await startGateway({
    config: {
      channels: [
        {
          name: 'anthropic',
          type: 'anthropic',
          baseUrl: `${anthropicUpstream.origin}/`,
          apiKey: 'sk-upstream-anthropic',
          models: ['fixture/anthropic-*', 'mapped-claude'],
          modelMapping: { 'mapped-claude': 'fixture/anthropic-text.json' },
        },
        {
          name: 'openai',
          type: 'openai-chat',
          baseUrl: `${openAiUpstream.origin}/v1`,
          apiKey: 'sk-upstream-openai',
          models: ['fixture/openai-*', 'fixture/deepseek-*', 'fixture/alibaba-*', 'fixture/groq-*'],
        },
      ],
      keys: [{ name: 'client', key: 'sk-client-upstreams' }],
    },
  });
  client = new Anthropic({ baseURL: gw.url, apiKey: 'sk-client-upstreams', maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
  await anthropicUpstream?.close();
  await openAiUpstream?.close();
});

const ask = (model: string) => ({ model, max_tokens: 1000, messages: [{ role: 'user' as const, content: 'Hello' }] });

describe('through an anthropic upstream (pass-through)', () => {
  it('forwards the body untouched and the credential as x-api-key', async () => {
    const body = { ...ask('fixture/anthropic-text.json'), metadata: { user_id: 'u-1' }, unknown_field: 42 };
    const message = await client.messages.create(body as never, { headers: { 'anthropic-beta': 'some-beta-2025-01-01' } });
    expect(message.content[0].type).toBe('text');
    const seen = anthropicUpstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/messages');
    expect(seen.headers['x-api-key']).toBe('sk-upstream-anthropic');
    expect(seen.headers['anthropic-beta']).toBe('some-beta-2025-01-01');
    expect(seen.json()).toEqual(body);
  });

  it('rewrites only the model name when the channel maps it', async () => {
    await client.messages.create(ask('mapped-claude'));
    expect(anthropicUpstream.requests.at(-1)!.json()).toEqual(ask('fixture/anthropic-text.json'));
  });

  it('streams text, tools and thinking', async () => {
    const text = await client.messages.stream(ask('fixture/anthropic-text.chunks.txt')).finalMessage();
    expect(text.stop_reason).toBe('end_turn');
    const tool = await client.messages.stream(ask('fixture/anthropic-tool-no-args.chunks.txt')).finalMessage();
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content.some((block) => block.type === 'tool_use')).toBe(true);
    const thinking = await client.messages.stream(ask('fixture/anthropic-combined-context-editing.1.chunks.txt')).finalMessage();
    expect(thinking.content[0].type).toBe('thinking');
  });

  it('logs the usage the upstream reported, cache counters included', async () => {
    await client.messages.stream(ask('fixture/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt')).finalMessage();
    const logs = await gw.admin('GET', '/logs?model=fixture/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt');
    expect(logs.body.data[0]).toMatchObject({ cacheReadTokens: 6289, cacheWriteTokens: 3337, estimated: false, triedChannels: ['anthropic'] });
  });
});

describe('through an openai-chat upstream (translation)', () => {
  it('answers plain text as a Messages object', async () => {
    const message = await client.messages.create(ask('fixture/openai-text.json'));
    expect(message.type).toBe('message');
    expect(message.model).toBe('fixture/openai-text.json');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content[0].type).toBe('text');
    const seen = openAiUpstream.requests.at(-1)!;
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.json<{ messages: unknown[] }>().messages).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('streams text and reads the usage chunk', async () => {
    const message = await client.messages.stream(ask('fixture/openai-text.chunks.txt')).finalMessage();
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('translates tool calls, plain and streamed', async () => {
    const plain = await client.messages.create(ask('fixture/deepseek-tool-call.json'));
    expect(plain.stop_reason).toBe('tool_use');
    const call = plain.content.find((block) => block.type === 'tool_use');
    expect(call?.type === 'tool_use' && typeof call.input).toBe('object');
    const streamed = await client.messages.stream(ask('fixture/alibaba-tool-call.chunks.txt')).finalMessage();
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.content.some((block) => block.type === 'tool_use')).toBe(true);
  });

  it('translates reasoning into thinking blocks', async () => {
    const message = await client.messages.stream(ask('fixture/deepseek-reasoning.chunks.txt')).finalMessage();
    expect(message.content[0].type).toBe('thinking');
    expect(message.content.some((block) => block.type === 'text')).toBe(true);
  });

  it('leaves out a typed tool the upstream cannot run, unless tool_choice forces it', async () => {
    const { response } = await client.messages.create({ ...ask('fixture/openai-text.json'), tools: [{ type: 'bash_20241022', name: 'bash' } as never] }).withResponse();
    expect(response.headers.get('x-switchyard-translation')).toBe('ignored=tool bash_20241022');
    const failure = await client.messages
      .create({
        ...ask('fixture/openai-text.json'),
        tools: [{ type: 'bash_20241022', name: 'bash' } as never],
        tool_choice: { type: 'tool', name: 'bash' },
      })
      .catch((error) => error);
    expect(failure).toBeInstanceOf(Anthropic.BadRequestError);
    expect(failure.message).toContain('bash');
  });
});
