/**
 * The console playground's wire helpers: each family's request goes where
 * that family's clients send it, with the key where they put it; answer text
 * is read from whole answers and from streamed events of every family; SSE
 * text split anywhere across chunks yields the same events.
 */
import { describe, expect, it } from 'vitest';
import { answerText, buildExchange, eventText, takeEvents } from '../../console/src/views/playground-wire.js';

describe('buildExchange', () => {
  it('puts the key where each family expects it', () => {
    expect(buildExchange('messages', 'm', 'hi', true, 'k').headers['x-api-key']).toBe('k');
    expect(buildExchange('generate', 'm', 'hi', false, 'k').headers['x-goog-api-key']).toBe('k');
    expect(buildExchange('responses', 'm', 'hi', false, 'k').headers.authorization).toBe('Bearer k');
    expect(buildExchange('chat-completions', 'm', 'hi', false, 'k').headers.authorization).toBe('Bearer k');
  });

  it('streams generateContent through :streamGenerateContent with alt=sse, and escapes the model', () => {
    expect(buildExchange('generate', 'a/b', 'hi', true, 'k').url).toBe('/v1beta/models/a%2Fb:streamGenerateContent?alt=sse');
    expect(buildExchange('generate', 'g', 'hi', false, 'k').url).toBe('/v1beta/models/g:generateContent');
  });

  it('asks for a stream only when streaming', () => {
    expect(buildExchange('chat-completions', 'm', 'hi', false, 'k').body.stream).toBeUndefined();
    expect(buildExchange('responses', 'm', 'hi', true, 'k').body).toEqual({ model: 'm', input: 'hi', stream: true });
  });
});

describe('answer text', () => {
  it('reads whole answers of every family', () => {
    expect(
      answerText('messages', {
        content: [
          { type: 'thinking', thinking: 'x' },
          { type: 'text', text: 'Hello' },
        ],
      }),
    ).toBe('Hello');
    expect(answerText('generate', { candidates: [{ content: { parts: [{ text: 'why', thought: true }, { text: 'Hi' }] } }] })).toBe('Hi');
    expect(answerText('responses', { output: [{ type: 'reasoning' }, { type: 'message', content: [{ type: 'output_text', text: 'Yo' }] }] })).toBe('Yo');
    expect(answerText('chat-completions', { choices: [{ message: { content: 'Hey' } }] })).toBe('Hey');
  });

  it('reads streamed events of every family, and nothing from other events', () => {
    expect(eventText('messages', { type: 'content_block_delta', delta: { type: 'text_delta', text: 'a' } })).toBe('a');
    expect(eventText('messages', { type: 'content_block_delta', delta: { type: 'input_json_delta', partial_json: '{' } })).toBe('');
    expect(eventText('generate', { candidates: [{ content: { parts: [{ text: 'b' }] } }] })).toBe('b');
    expect(eventText('responses', { type: 'response.output_text.delta', delta: 'c' })).toBe('c');
    expect(eventText('responses', { type: 'response.completed' })).toBe('');
    expect(eventText('chat-completions', { choices: [{ delta: { content: 'd' } }] })).toBe('d');
    expect(eventText('chat-completions', { choices: [], usage: { total_tokens: 3 } })).toBe('');
  });
});

describe('takeEvents', () => {
  const stream = 'event: message_start\ndata: {"a":1}\n\ndata: {"b":\ndata: 2}\n\r\n: comment\n\ndata: [DONE]\n\n';

  it('returns complete events and keeps the unfinished rest', () => {
    expect(takeEvents(stream)).toEqual({ data: ['{"a":1}', '{"b":\n2}', '[DONE]'], rest: '' });
    expect(takeEvents('data: {"a":1}\n\ndata: {"b"')).toEqual({ data: ['{"a":1}'], rest: 'data: {"b"' });
  });

  it('gives the same events however the text is split into chunks', () => {
    for (let cut = 1; cut < stream.length; cut++) {
      const first = takeEvents(stream.slice(0, cut));
      const second = takeEvents(first.rest + stream.slice(cut));
      expect([...first.data, ...second.data], `cut at ${cut}`).toEqual(['{"a":1}', '{"b":\n2}', '[DONE]']);
    }
  });
});
