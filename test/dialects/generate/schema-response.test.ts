/**
 * The dialect's answer and error schemas describe both directions: every
 * recorded upstream answer (plain, each stream chunk, the error body) and
 * every answer the family renders parse with them, and parsing drops
 * nothing (a field the schema does not name would be stripped, so the
 * parsed value would differ).
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { googleErrorBody } from '../../../src/dialects/generate/errors.js';
import { generateContentResponseSchema, googleErrorBodySchema } from '../../../src/dialects/generate/schema.js';
import { renderGenerateResponse, type RenderOptions } from '../../../src/families/generate/from-core.js';
import { GenerateStreamEncoder } from '../../../src/families/generate/stream-encoder.js';
import { fixtureChunks, fixtureFiles, fixtureJson } from '../../upstreams/support/fixtures.js';

function expectWhole(schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual(value);
}

describe('recorded gemini answers', () => {
  const files = fixtureFiles('gemini');

  it('a field the schema does not name is dropped by parsing, so the comparison sees it', () => {
    const chunk = { candidates: [{ index: 0, unnamedField: 1 }] };
    expect(generateContentResponseSchema().parse(chunk)).not.toEqual(chunk);
  });

  it.each(files.filter((file) => file.endsWith('.json') && !file.includes('429')))('%s parses as a GenerateContentResponse', (file) => {
    expectWhole(generateContentResponseSchema(), fixtureJson('gemini', file));
  });

  it.each(files.filter((file) => file.endsWith('.chunks.txt')))('every chunk of %s parses as a GenerateContentResponse', (file) => {
    for (const chunk of fixtureChunks('gemini', file)) expectWhole(generateContentResponseSchema(), JSON.parse(chunk));
  });

  it('the 429 body parses as an error body', () => {
    expectWhole(googleErrorBodySchema(), fixtureJson('gemini', 'google-429-retry-info.json'));
  });
});

const usage: Usage = { inputTokens: 12, outputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 0, reasoningTokens: 10 };
const shown: RenderOptions = { includeThoughts: true, enumOutput: false, promptMedia: { IMAGE: 1 } };
const hidden: RenderOptions = { includeThoughts: false, enumOutput: false };

function answer(content: ChatResponse['content'], finishReason: ChatResponse['finishReason'] = 'stop'): ChatResponse {
  return { id: 'resp_1', model: 'up', content, finishReason, usage };
}

const everyPart: ChatResponse['content'] = [
  { type: 'thinking', text: 'Let me see.', signature: 'c2lnbmF0dXJl' },
  { type: 'text', text: 'It is sunny.', citations: [{ url: 'https://example.com/weather' }] },
  { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
];

describe("the family's answers", () => {
  it.each([
    ['text, thoughts shown, a citation and a call', answer(everyPart, 'tool_use'), shown],
    ['thoughts hidden', answer(everyPart), hidden],
    ['a blocked answer', answer([], 'content_filter'), hidden],
    ['an empty answer', answer([], 'length'), hidden],
  ])('%s parses as a GenerateContentResponse', (_name, response, options) => {
    expectWhole(generateContentResponseSchema(), JSON.parse(JSON.stringify(renderGenerateResponse(response, 'client-model', options))));
  });

  it('every streamed chunk parses as a GenerateContentResponse, and the error chunk as an error body', () => {
    const events: ChatEvent[] = [
      { type: 'message_start', id: 'resp_2', model: 'up' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'Hmm.' },
      { type: 'signature_delta', index: 0, signature: 'c2ln' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Hello' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'call_2', name: 'f' } },
      { type: 'tool_input_delta', index: 2, json: '{"a":1}' },
      { type: 'block_stop', index: 2 },
      { type: 'finish', reason: 'tool_use', usage },
    ];
    const encoder = new GenerateStreamEncoder({ clientModel: 'client-model', sse: false, includeThoughts: true, enumOutput: false });
    const chunks = JSON.parse(encoder.open() + events.map((event) => encoder.encode(event)).join('') + encoder.close()) as unknown[];
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expectWhole(generateContentResponseSchema(), chunk);

    const failing = new GenerateStreamEncoder({ clientModel: 'client-model', sse: false, includeThoughts: false, enumOutput: false });
    const cut = JSON.parse(failing.open() + failing.error(new GatewayError('overloaded', 'every channel is busy'))) as unknown[];
    expectWhole(googleErrorBodySchema(), cut[0]);
  });

  it('error bodies parse as error bodies, with the retry detail', () => {
    expectWhole(googleErrorBodySchema(), googleErrorBody(new GatewayError('rate_limited', 'slow down', { retryAfterSeconds: 3 })));
    expectWhole(googleErrorBodySchema(), googleErrorBody(new GatewayError('invalid_request', 'bad')));
  });
});
