/**
 * The Chat Completions answer, chunk and error schemas describe both
 * directions: every recorded OpenAI and compatible server answer, stream
 * chunk and error body, and every completion, chunk and error the family
 * writes, parse with them, and parsing drops nothing (a field the schema
 * does not name would be stripped). The reader's views the upstream uses
 * take the recorded ones too.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { renderOpenAIError } from '../../../src/dialects/openai/errors.js';
import { chatCompletionChunkSchema, chatCompletionSchema, errorChunkSchema, openAIErrorBodySchema, wireChunkSchema, wireCompletionSchema } from '../../../src/dialects/chat-completions/schema.js';
import { renderCompletion } from '../../../src/families/chat-completions/from-core.js';
import { ChatCompletionsStreamEncoder, type ChunkEncoderOptions } from '../../../src/families/chat-completions/stream-encoder.js';
import { fixtureChunks, fixtureFiles, fixtureJson } from '../../upstreams/support/fixtures.js';

function expectWhole(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(value);
}

describe('recorded chat completions', () => {
  const files = fixtureFiles('openai-chat');

  it('a field the schema does not name is dropped by parsing, so the comparison sees it', () => {
    const chunk = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'a', unnamed: 1 }, finish_reason: null }] };
    expect(chatCompletionChunkSchema().parse(chunk)).not.toEqual(chunk);
  });

  it.each(files.filter((file) => file.endsWith('.json') && !file.includes('error')))('%s parses as a chat completion', (file) => {
    const answer = fixtureJson('openai-chat', file);
    expectWhole(chatCompletionSchema(), answer);
    expectWhole(wireCompletionSchema(), answer);
  });

  it.each(files.filter((file) => file.endsWith('.chunks.txt')))('every chunk of %s parses as a chunk', (file) => {
    for (const line of fixtureChunks('openai-chat', file)) {
      const chunk: unknown = JSON.parse(line);
      expectWhole(chatCompletionChunkSchema(), chunk);
      expectWhole(wireChunkSchema(), chunk);
    }
  });

  it('the error body parses as an OpenAI error body', () => {
    expectWhole(openAIErrorBodySchema(), fixtureJson('openai-chat', 'reasoning-model-legacy-parameter-error.json'));
  });
});

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 0, reasoningTokens: 10 };

const everyPart: ChatResponse['content'] = [
  { type: 'thinking', text: 'Let me see.', signature: 'swy1-thought' },
  { type: 'thinking', text: '', redactedData: 'swy1-redacted' },
  { type: 'text', text: 'It is sunny.' },
  { type: 'thinking', text: '', signature: 'swy1-call' },
  { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
  { type: 'tool_call', id: 'call_2', name: 'get_time', input: {} },
];

function answer(content: ChatResponse['content'], finishReason: ChatResponse['finishReason']): ChatResponse {
  return { id: 'up_1', model: 'up', content, finishReason, usage };
}

const events: ChatEvent[] = [
  { type: 'message_start', id: 'up_2', model: 'up' },
  { type: 'block_start', index: 0, block: { type: 'thinking' } },
  { type: 'thinking_delta', index: 0, text: 'Hmm.' },
  { type: 'signature_delta', index: 0, signature: 'swy1-thought' },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'redacted_thinking', data: 'swy1-redacted' } },
  { type: 'block_stop', index: 1 },
  { type: 'block_start', index: 2, block: { type: 'text' } },
  { type: 'text_delta', index: 2, text: 'Hello' },
  { type: 'block_stop', index: 2 },
  { type: 'block_start', index: 3, block: { type: 'thinking' } },
  { type: 'signature_delta', index: 3, signature: 'swy1-call' },
  { type: 'block_stop', index: 3 },
  { type: 'block_start', index: 4, block: { type: 'tool_call', id: 'call_2', name: 'get_weather' } },
  { type: 'tool_input_delta', index: 4, json: '{"a":1}' },
  { type: 'block_stop', index: 4 },
  { type: 'finish', reason: 'tool_use', usage },
];

/** The `data:` of every frame but `[DONE]`. */
function chunksOf(text: string): unknown[] {
  const data = text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length));
  expect(data.at(-1)).toBe('[DONE]');
  return data.slice(0, -1).map((payload) => JSON.parse(payload) as unknown);
}

describe("the family's answers", () => {
  it.each([
    ['every part', answer(everyPart, 'tool_use'), false],
    ['a call made with the legacy functions', answer(everyPart, 'tool_use'), true],
    ['a refusal', answer([], 'refusal'), false],
    ['an answer cut at the limit', answer([{ type: 'text', text: 'It is' }], 'length'), false],
  ])('%s parses as a chat completion', (_name, response, legacyFunctions) => {
    expectWhole(chatCompletionSchema(), JSON.parse(JSON.stringify(renderCompletion(response, { clientModel: 'client-model', legacyFunctions }))));
  });

  it.each([
    ['with the usage chunk', { includeUsage: true, legacyFunctions: false }],
    ['without it', { includeUsage: false, legacyFunctions: false }],
    ['legacy functions', { includeUsage: true, legacyFunctions: true }],
  ])('every chunk the stream encoder writes parses as a chunk, %s', (_name, options: Omit<ChunkEncoderOptions, 'clientModel'>) => {
    const encoder = new ChatCompletionsStreamEncoder({ clientModel: 'client-model', ...options });
    const chunks = chunksOf(events.map((event) => encoder.encode(event)).join(''));
    expect(chunks.length).toBeGreaterThan(6);
    for (const chunk of chunks) expectWhole(chatCompletionChunkSchema(), chunk);
  });

  it('the error chunk of a stream that failed, and error bodies, parse as errors', () => {
    const encoder = new ChatCompletionsStreamEncoder({ clientModel: 'client-model', includeUsage: false, legacyFunctions: false });
    const text = encoder.encode({ type: 'block_start', index: 0, block: { type: 'text' } }) + encoder.error(new GatewayError('overloaded', 'every channel is busy'));
    const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: '));
    expectWhole(errorChunkSchema(), JSON.parse(frames.at(-1)!.slice('data: '.length)));
    expectWhole(openAIErrorBodySchema(), renderOpenAIError(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 3 }), 'chat-completions').body);
  });
});
