import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { ChatResponse, FinishReason } from '../../../src/core/chat.js';
import { renderMessage } from '../../../src/families/messages/from-core.js';

const usage = { inputTokens: 12, outputTokens: 34, cacheReadTokens: 5, cacheWriteTokens: 6 };

function response(overrides: Partial<ChatResponse> = {}): ChatResponse {
  return { id: 'msg_abc', model: 'upstream-x', content: [{ type: 'text', text: 'Hello' }], finishReason: 'stop', usage, ...overrides };
}

describe('renderMessage', () => {
  it('renders the message object with every field the spec lists', () => {
    const message = renderMessage(
      response({
        content: [
          { type: 'thinking', text: 'plan', signature: 'sig' },
          { type: 'thinking', text: '', redactedData: 'sealed' },
          { type: 'text', text: 'Hello' },
          { type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        finishReason: 'tool_use',
      }),
      'claude-client-name',
    );
    expect(message).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'claude-client-name',
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'redacted_thinking', data: 'sealed' },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 34, cache_creation_input_tokens: 6, cache_read_input_tokens: 5 },
    });
  });

  it('matches the official client type', () => {
    const message = renderMessage(response(), 'm');
    // Compile-time check against the SDK's own Message type (fields it lists as required).
    const typed: Pick<Message, 'id' | 'type' | 'role' | 'model' | 'stop_sequence'> = message;
    expect(typed.type).toBe('message');
  });

  it('prefixes ids that lack msg_ and invents one when there is none', () => {
    expect(renderMessage(response({ id: 'chatcmpl-1' }), 'm').id).toBe('msg_chatcmpl-1');
    expect(renderMessage(response({ id: '' }), 'm').id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('gives thinking without signature an empty signature and drops empty text', () => {
    const message = renderMessage(
      response({
        content: [
          { type: 'thinking', text: 'hm' },
          { type: 'text', text: '' },
        ],
      }),
      'm',
    );
    expect(message.content).toEqual([{ type: 'thinking', thinking: 'hm', signature: '' }]);
  });

  it.each<[FinishReason, string]>([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['tool_use', 'tool_use'],
    ['content_filter', 'refusal'],
    ['refusal', 'refusal'],
    ['pause', 'pause_turn'],
    ['error', 'end_turn'],
    ['other', 'end_turn'],
  ])('maps finish reason %s to stop_reason %s', (reason, stopReason) => {
    expect(renderMessage(response({ finishReason: reason }), 'm').stop_reason).toBe(stopReason);
  });

  it('reports the stop sequence only when one matched', () => {
    expect(renderMessage(response({ finishReason: 'stop_sequence', stopSequence: 'END' }), 'm').stop_sequence).toBe('END');
    expect(renderMessage(response({ finishReason: 'stop', stopSequence: 'END' }), 'm').stop_sequence).toBeNull();
  });
});
