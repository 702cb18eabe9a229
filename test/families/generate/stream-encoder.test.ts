import { describe, expect, it } from 'vitest';
import type { ChatEvent, Usage } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { GenerateStreamEncoder, type GenerateStreamOptions } from '../../../src/families/generate/stream-encoder.js';

const usage: Usage = { inputTokens: 5, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 };

function encoder(overrides: Partial<GenerateStreamOptions> = {}) {
  return new GenerateStreamEncoder({ clientModel: 'm', sse: true, includeThoughts: false, enumOutput: false, ...overrides });
}

function run(events: ChatEvent[], overrides: Partial<GenerateStreamOptions> = {}): string {
  const enc = encoder(overrides);
  return (enc.open() ?? '') + events.map((event) => enc.encode(event)).join('') + (enc.close() ?? '');
}

function sseChunks(text: string): any[] {
  return text
    .split('\r\n\r\n')
    .filter(Boolean)
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return JSON.parse(event.slice('data: '.length));
    });
}

const textAnswer: ChatEvent[] = [
  { type: 'message_start', id: 'resp_9', model: 'up' },
  { type: 'block_start', index: 0, block: { type: 'text' } },
  { type: 'text_delta', index: 0, text: 'Hel' },
  { type: 'text_delta', index: 0, text: 'lo' },
  { type: 'block_stop', index: 0 },
  { type: 'finish', reason: 'stop', usage },
];

describe('GenerateStreamEncoder', () => {
  it('writes one data line per chunk, the last with finishReason and usage, no event lines and no [DONE]', () => {
    const out = run(textAnswer);
    expect(out).not.toContain('event:');
    expect(out).not.toContain('[DONE]');
    const chunks = sseChunks(out);
    expect(chunks).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'm', responseId: 'resp_9' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }], modelVersion: 'm', responseId: 'resp_9' },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: expect.objectContaining({ promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 }),
        modelVersion: 'm',
        responseId: 'resp_9',
      },
    ]);
  });

  it('writes one JSON array without SSE', () => {
    const out = run(textAnswer, { sse: false });
    const chunks = JSON.parse(out);
    expect(chunks).toHaveLength(3);
    expect(chunks[2].candidates[0].finishReason).toBe('STOP');
  });

  it('sends a function call whole when its block ends, with the thought signature before it', () => {
    const chunks = sseChunks(
      run(
        [
          { type: 'message_start', id: 'r' },
          { type: 'block_start', index: 0, block: { type: 'thinking' } },
          { type: 'thinking_delta', index: 0, text: 'hmm' },
          { type: 'signature_delta', index: 0, signature: 'sig' },
          { type: 'block_stop', index: 0 },
          { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'call_1', name: 'f' } },
          { type: 'tool_input_delta', index: 1, json: '{"a":' },
          { type: 'tool_input_delta', index: 1, json: '1}' },
          { type: 'block_stop', index: 1 },
          { type: 'finish', reason: 'tool_use', usage },
        ],
        { includeThoughts: true },
      ),
    );
    expect(chunks.map((chunk) => chunk.candidates[0].content?.parts)).toEqual([
      [{ text: 'hmm', thought: true }],
      [{ functionCall: { id: 'call_1', name: 'f', args: { a: 1 } }, thoughtSignature: 'sig' }],
      [{ text: '' }],
    ]);
    expect(chunks[2].candidates[0].finishReason).toBe('STOP');
  });

  it('holds an enum answer until the end and unwraps it', () => {
    const chunks = sseChunks(
      run(
        [
          { type: 'message_start', id: 'r' },
          { type: 'block_start', index: 0, block: { type: 'text' } },
          { type: 'text_delta', index: 0, text: '{"value": "pi' },
          { type: 'text_delta', index: 0, text: 'ano"}' },
          { type: 'block_stop', index: 0 },
          { type: 'finish', reason: 'stop', usage },
        ],
        { enumOutput: true },
      ),
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0].candidates[0]).toEqual({ content: { role: 'model', parts: [{ text: 'piano' }] }, finishReason: 'STOP', index: 0 });
  });

  it('reports an answer filtered before any content as a blocked prompt', () => {
    const chunks = sseChunks(
      run([
        { type: 'message_start', id: 'r' },
        { type: 'finish', reason: 'content_filter', usage },
      ]),
    );
    expect(chunks).toEqual([{ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: expect.any(Object), modelVersion: 'm', responseId: 'r' }]);
  });

  it('ends a broken stream with an error chunk in the service shape', () => {
    const enc = encoder();
    enc.encode(textAnswer[0]);
    enc.encode(textAnswer[1]);
    const first = enc.encode(textAnswer[2]);
    const error = enc.error(new GatewayError('upstream_error', 'upstream connection closed'));
    expect(sseChunks(first + error).at(-1)).toEqual({ error: { code: 500, message: 'upstream connection closed', status: 'INTERNAL' } });
    expect(enc.encode(textAnswer[3])).toBe('');
  });

  it('closes the JSON array in the error chunk, and a fresh encoder assumes earlier chunks', () => {
    const enc = encoder({ sse: false });
    const out = enc.open() + enc.encode(textAnswer[0]) + enc.encode(textAnswer[1]) + enc.encode(textAnswer[2]) + enc.error(new GatewayError('timeout', 'slow'));
    expect(JSON.parse(out).at(-1)).toEqual({ error: { code: 504, message: 'slow', status: 'DEADLINE_EXCEEDED' } });
    const fresh = encoder({ sse: false }).error(new GatewayError('timeout', 'slow'));
    expect(fresh.startsWith(',\r\n{')).toBe(true);
    expect(fresh.endsWith(']')).toBe(true);
    expect(encoder().error(new GatewayError('timeout', 'slow')).startsWith('\r\n\r\ndata: ')).toBe(true);
  });
});
