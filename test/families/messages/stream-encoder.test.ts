import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/errors.js';
import { MessagesStreamEncoder } from '../../../src/families/messages/stream-encoder.js';
import { encodeAll, readSse, realisticEvents } from './stream-fixtures.js';

describe('MessagesStreamEncoder', () => {
  it('encodes a realistic stream as well-formed SSE in the vendor order', () => {
    const events = readSse(encodeAll(realisticEvents));
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0].data.message).toEqual({
      id: 'msg_upstream_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-client',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(events[2].data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    expect(events[5].data.delta).toEqual({ type: 'signature_delta', signature: 'EqQBCkgIARABGAIiQ' });
    expect(events[7].data.content_block).toEqual({ type: 'text', text: '' });
    expect(events[9].data).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'text_delta', text: 'that "for" you.\n' },
    });
    expect(events[11].data.content_block).toEqual({ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: {} });
    const json = events
      .slice(12, 15)
      .map((e) => e.data.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ city: 'Paris' });
    const usage = { input_tokens: 12, output_tokens: 57, cache_creation_input_tokens: 4, cache_read_input_tokens: 3 };
    expect(events[16].data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null, usage },
      usage,
    });
  });

  it('synthesizes message_start and closes open blocks at finish', () => {
    const encoder = new MessagesStreamEncoder({ clientModel: 'c', messageId: 'gw-123', inputTokensEstimate: 40 });
    const text = [
      encoder.encode({ type: 'block_start', index: 0, block: { type: 'text' } }),
      encoder.encode({ type: 'text_delta', index: 0, text: 'Hi' }),
      encoder.encode({ type: 'block_start', index: 1, block: { type: 'redacted_thinking', data: 'sealed' } }),
      encoder.encode({
        type: 'finish',
        reason: 'stop_sequence',
        stopSequence: 'END',
        usage: { inputTokens: 41, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
      }),
    ].join('');
    const events = readSse(text);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_start',
      'content_block_stop',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0].data.message.id).toBe('msg_gw-123');
    expect(events[0].data.message.usage.input_tokens).toBe(40);
    expect(events[4].data.content_block).toEqual({ type: 'redacted_thinking', data: 'sealed' });
    expect(events.slice(5, 7).map((e) => e.data.index)).toEqual([0, 1]);
    expect(events[7].data.delta).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(events[7].data.usage.input_tokens).toBe(41);
  });

  it('ignores a repeated message_start and anything after finish', () => {
    const encoder = new MessagesStreamEncoder({ clientModel: 'c' });
    expect(encoder.encode({ type: 'message_start' })).toContain('event: message_start');
    expect(encoder.encode({ type: 'message_start' })).toBe('');
    encoder.encode({ type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } });
    expect(encoder.encode({ type: 'text_delta', index: 0, text: 'late' })).toBe('');
  });

  it('invents a msg_ id when neither the upstream nor the caller gives one', () => {
    const [start] = readSse(new MessagesStreamEncoder({ clientModel: 'c' }).encode({ type: 'message_start' }));
    expect(start.data.message.id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('renders an error event in the vendor shape', () => {
    const encoder = new MessagesStreamEncoder({ clientModel: 'c' });
    const text = encoder.error(new GatewayError('overloaded', 'upstream overloaded'));
    expect(text).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"upstream overloaded","code":"overloaded"}}\n\n');
    expect(encoder.encode({ type: 'text_delta', index: 0, text: 'x' })).toBe('');
  });
});
