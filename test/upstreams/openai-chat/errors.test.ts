/** Upstream failures seen through the openai-chat adapter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { sseReply } from '../support/fixtures.js';
import { collect } from '../support/fold-events.js';

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const request = (stream: boolean): ChatRequest => ({
  model: 'gpt-test',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream,
});

async function chatError(stream = false): Promise<GatewayError> {
  try {
    const result = await sendChat(openAiChatAdapter, request(stream), testCall({ baseUrl: `${upstream.origin}/v1` }));
    if (result.stream) await collect(result.events);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected the call to fail');
}

const completion = (message: Record<string, unknown>, finish = 'tool_calls') => JSON.stringify({ id: 'x', model: 'm', choices: [{ index: 0, message, finish_reason: finish }] });

describe('openai-chat upstream errors', () => {
  it('429 with an OpenAI error body and retry-after', async () => {
    upstream.reply({
      status: 429,
      headers: { 'retry-after': '3' },
      body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } }),
    });
    expect(await chatError(true)).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3, message: 'Rate limit reached', retryable: true });
  });

  it('other error body shapes: {error:"..."} and {message}', async () => {
    upstream.reply({ status: 500, body: JSON.stringify({ error: 'model crashed' }) });
    expect(await chatError()).toMatchObject({ kind: 'upstream_error', message: 'model crashed' });
    upstream.reply({ status: 404, body: JSON.stringify({ message: 'model not found' }) });
    expect(await chatError()).toMatchObject({ kind: 'not_found', status: 404, message: 'model not found', retryable: false });
  });

  it('a stream cut half way throws from the event iterator', async () => {
    upstream.reply(sseReply('openai-chat', 'openai-text.chunks.txt', { cutAfterChunks: 50 }));
    expect(await chatError(true)).toMatchObject({ kind: 'upstream_error', retryable: true });
  });

  it('tool call arguments that are not JSON are reported, not guessed', async () => {
    upstream.reply({
      body: completion({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }),
    });
    const error = await chatError();
    expect(error).toMatchObject({ kind: 'upstream_error' });
    expect(error.message).toContain('"f"');
  });

  it('empty arguments mean no arguments; legacy function_call is read too', async () => {
    upstream.reply({
      body: completion({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }),
    });
    const first = await sendChat(openAiChatAdapter, request(false), testCall({ baseUrl: `${upstream.origin}/v1` }));
    expect(!first.stream && first.response.content).toEqual([{ type: 'tool_call', id: 'c', name: 'f', input: {} }]);
    upstream.reply({ body: completion({ role: 'assistant', content: null, function_call: { name: 'g', arguments: '{"b":2}' } }, 'function_call') });
    const second = await sendChat(openAiChatAdapter, request(false), testCall({ baseUrl: `${upstream.origin}/v1` }));
    if (second.stream) throw new Error('expected a plain answer');
    expect(second.response.content).toMatchObject([{ type: 'tool_call', name: 'g', input: { b: 2 } }]);
    expect(second.response.finishReason).toBe('tool_use');
  });

  it('an answer without choices is an upstream_error', async () => {
    upstream.reply({ body: JSON.stringify({ id: 'x', choices: [] }) });
    expect(await chatError()).toMatchObject({ kind: 'upstream_error', message: /choices/ });
  });
});
