/**
 * The official clients as oracles: the encoder's bytes, served from a loopback
 * server, must be rebuilt into the same message by @anthropic-ai/sdk (1.x and
 * 0.x) and by the AI SDK's Anthropic provider.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { jsonSchema, streamText, generateText, tool } from 'ai';
import LegacyAnthropic from 'anthropic-sdk-legacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { renderMessage } from '../../../src/families/messages/from-core.js';
import { MessagesStreamEncoder } from '../../../src/families/messages/stream-encoder.js';
import { startCannedServer, type CannedServer } from './canned-server.js';
import { encodeAll, realisticEvents } from './stream-fixtures.js';

const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const request = { model: 'claude-client', max_tokens: 4096, messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] };

let server: CannedServer;
beforeAll(async () => {
  server = await startCannedServer();
});
afterAll(async () => {
  await server.close();
});

function serveStream(text: string) {
  server.respond({ status: 200, headers: sseHeaders, body: text });
}

// Both majors share the calls used here; the 0.x client is typed as the 1.x one to call them alike.
const clients: Record<string, () => Anthropic> = {
  '@anthropic-ai/sdk 1.x': () => new Anthropic({ baseURL: server.baseUrl, apiKey: 'x', maxRetries: 0 }),
  '@anthropic-ai/sdk 0.x': () => new LegacyAnthropic({ baseURL: server.baseUrl, apiKey: 'x', maxRetries: 0 }) as unknown as Anthropic,
};

describe.each(Object.entries(clients))('%s', (_name, makeClient) => {
  it('rebuilds the streamed message with finalMessage()', async () => {
    serveStream(encodeAll(realisticEvents));
    const message = await makeClient().messages.stream(request).finalMessage();
    expect(message.id).toBe('msg_upstream_01');
    expect(message.model).toBe('claude-client');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants the weather.', signature: 'EqQBCkgIARABGAIiQ' },
      { type: 'text', text: 'Let me check that "for" you.\n' },
      { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({
      input_tokens: 12,
      output_tokens: 57,
      cache_creation_input_tokens: 4,
      cache_read_input_tokens: 3,
    });
  });

  it('yields every event but ping from a raw stream', async () => {
    serveStream(encodeAll(realisticEvents));
    const stream = await makeClient().messages.create({ ...request, stream: true });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toHaveLength(17);
  });

  it('raises an error event as an API error of its type', async () => {
    const encoder = new MessagesStreamEncoder({ clientModel: 'claude-client' });
    const text =
      encoder.encode({ type: 'block_start', index: 0, block: { type: 'text' } }) +
      encoder.encode({ type: 'text_delta', index: 0, text: 'partial' }) +
      encoder.error(new GatewayError('overloaded', 'upstream overloaded'));
    serveStream(text);
    await expect(makeClient().messages.stream(request).finalMessage()).rejects.toMatchObject({
      type: 'overloaded_error',
    });
  });

  it('reads a rendered non-streaming message', async () => {
    const body = renderMessage(
      {
        id: 'abc',
        model: 'upstream',
        content: [{ type: 'text', text: 'Sunny.' }],
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      'claude-client',
    );
    server.respond({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const message = await makeClient().messages.create(request);
    expect(message).toEqual(body);
  });
});

describe('@ai-sdk/anthropic', () => {
  const provider = () => createAnthropic({ baseURL: `${server.baseUrl}/v1`, apiKey: 'x' });
  const tools = {
    get_weather: tool({
      description: 'weather',
      inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
    }),
  };

  it('parses the stream without error parts and finishes with tool calls', async () => {
    serveStream(encodeAll(realisticEvents));
    const result = streamText({ model: provider()('claude-client'), prompt: 'Weather in Paris?', tools, maxRetries: 0 });
    const parts: Array<{ type: string; [key: string]: unknown }> = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(parts.filter((p) => p.type === 'error')).toEqual([]);
    expect(await result.finishReason).toBe('tool-calls');
    expect(await result.text).toBe('Let me check that "for" you.\n');
    expect(await result.reasoningText).toBe('The user wants the weather.');
    const [call] = await result.toolCalls;
    expect(call).toMatchObject({ toolCallId: 'toolu_01', toolName: 'get_weather', input: { city: 'Paris' } });
    expect((await result.usage).outputTokens).toBe(57);
  });

  it('parses a rendered non-streaming message with thinking', async () => {
    const body = renderMessage(
      {
        id: 'msg_2',
        model: 'upstream',
        content: [
          { type: 'thinking', text: 'short thought' },
          { type: 'text', text: 'Sunny.' },
        ],
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      },
      'claude-client',
    );
    server.respond({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const result = await generateText({ model: provider()('claude-client'), prompt: 'Weather?', maxRetries: 0 });
    expect(result.text).toBe('Sunny.');
    expect(result.reasoningText).toBe('short thought');
    expect(result.finishReason).toBe('stop');
  });
});
