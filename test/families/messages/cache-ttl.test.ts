/**
 * Cache writes by TTL in the Messages dialect: read from an upstream's
 * `cache_creation` (plain answers and both stream events), and rendered back
 * to a Messages client, plain and streamed, only when the upstream said it.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse } from '../../../src/core/chat.js';
import { applyMessagesUsage, renderUsage, usageFromMessages } from '../../../src/dialects/messages/usage.js';
import { renderMessage } from '../../../src/families/messages/from-core.js';
import { encodeAll, readSse } from './stream-fixtures.js';

describe('reading cache writes by TTL', () => {
  it('keeps the one-hour part of the cache writes', () => {
    const usage = usageFromMessages({
      input_tokens: 10,
      output_tokens: 5,
      cache_creation_input_tokens: 700,
      cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 },
    });
    expect(usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 700, cacheWrite1hTokens: 500 });
  });

  it('takes the total from the split when the answer gives the split alone, and leaves it unknown when neither is given', () => {
    expect(usageFromMessages({ input_tokens: 1, cache_creation: { ephemeral_1h_input_tokens: 40 } })).toMatchObject({ cacheWriteTokens: 40, cacheWrite1hTokens: 40 });
    expect(usageFromMessages({ input_tokens: 1, cache_creation_input_tokens: 9 }).cacheWrite1hTokens).toBeUndefined();
  });

  it('lets a later message_delta replace what message_start said', () => {
    const usage = usageFromMessages({ input_tokens: 3, cache_creation_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 } });
    applyMessagesUsage(usage, { output_tokens: 8, cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } });
    expect(usage).toMatchObject({ outputTokens: 8, cacheWriteTokens: 300, cacheWrite1hTokens: 200 });
  });
});

describe('rendering cache writes by TTL to a Messages client', () => {
  const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 700, cacheWrite1hTokens: 500 };

  it('adds cache_creation when the split is known, and nothing otherwise', () => {
    expect(renderUsage(usage).cache_creation).toEqual({ ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 });
    expect(renderUsage({ ...usage, cacheWrite1hTokens: undefined })).not.toHaveProperty('cache_creation');
  });

  it('renders it in a translated plain answer and in the stream', () => {
    const response: ChatResponse = { id: 'r1', model: 'up', content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage };
    expect(renderMessage(response, 'client-model').usage).toMatchObject({ cache_creation_input_tokens: 700, cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 } });
    const events: ChatEvent[] = [
      { type: 'message_start', id: 'r1', model: 'up', usage: { inputTokens: 10, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 700, cacheWrite1hTokens: 500 } },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'hi' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', reason: 'stop', usage },
    ];
    const sse = readSse(encodeAll(events));
    expect(sse.find((event) => event.event === 'message_start')!.data.message.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 });
    expect(sse.find((event) => event.event === 'message_delta')!.data.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 500 });
  });
});
