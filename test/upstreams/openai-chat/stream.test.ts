/** The chat-completions stream state machine, fed hand-written chunk sequences. */
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { chatSseToEvents } from '../../../src/upstreams/protocols/chat-completions/convert-stream.js';
import { collect, foldEvents } from '../support/fold-events.js';

type Delta = Record<string, unknown>;
const chunk = (delta: Delta | null, finish: string | null = null, usage?: unknown) =>
  JSON.stringify({ id: 'c1', model: 'm', choices: delta === null ? [] : [{ index: 0, delta, finish_reason: finish }], usage });
const usage = { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } };

async function* sse(lines: string[], done = true): AsyncGenerator<Uint8Array> {
  for (const line of lines) yield Buffer.from(`data: ${line}\n\n`);
  if (done) yield Buffer.from('data: [DONE]\n\n');
}

const run = (lines: string[], done = true) => collect(chatSseToEvents(sse(lines, done)));

describe('chat-completions stream → ChatEvents', () => {
  it('opens one block per kind, closes it when another kind starts', async () => {
    const events = await run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think ' }),
      chunk({ reasoning: 'more' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ' there' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }),
      chunk({ tool_calls: [{ index: 0, id: '', function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'g', arguments: '' } }] }),
      chunk({}, 'tool_calls'),
      chunk(null, null, usage),
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'block_start',
      'thinking_delta',
      'thinking_delta',
      'block_stop',
      'block_start',
      'text_delta',
      'text_delta',
      'block_stop',
      'block_start',
      'tool_input_delta',
      'tool_input_delta',
      'block_stop',
      'block_start',
      'block_stop',
      'finish',
    ]);
    const folded = foldEvents(events);
    expect(folded.content).toEqual([
      { type: 'thinking', text: 'think more' },
      { type: 'text', text: 'Hello there' },
      { type: 'tool_call', id: 'call_a', name: 'f', input: { x: 1 } },
      { type: 'tool_call', id: 'call_b', name: 'g', input: {} },
    ]);
    expect(folded.finishReason).toBe('tool_use');
    expect(folded.usage).toEqual({ inputTokens: 6, outputTokens: 5, cacheReadTokens: 4, cacheWriteTokens: 0 });
  });

  it('emits finish as soon as both finish_reason and usage are known, before [DONE]', async () => {
    async function* neverDone(): AsyncGenerator<Uint8Array> {
      yield Buffer.from(`data: ${chunk({ content: 'hi' })}\n\ndata: ${chunk({}, 'stop', usage)}\n\n`);
      await new Promise(() => {}); // the upstream keeps the connection open
    }
    const iterator = chatSseToEvents(neverDone());
    const seen: ChatEvent[] = [];
    for await (const event of iterator) {
      seen.push(event);
      if (event.type === 'finish') break;
    }
    expect(seen.at(-1)).toMatchObject({ type: 'finish', reason: 'stop', usage: { inputTokens: 6 } });
  });

  it('without a usage chunk, finishes at [DONE] with zero usage', async () => {
    const folded = foldEvents(await run([chunk({ content: 'hi' }), chunk({}, 'length')]));
    expect(folded.finishReason).toBe('length');
    expect(folded.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('a stream that ends after finish_reason but without [DONE] still finishes', async () => {
    const folded = foldEvents(await run([chunk({ content: 'hi' }), chunk({}, 'stop')], false));
    expect(folded.finishReason).toBe('stop');
  });

  it('a refusal is text with the refusal finish reason', async () => {
    const folded = foldEvents(await run([chunk({ refusal: "I can't" }), chunk({}, 'stop', usage)]));
    expect(folded.content).toEqual([{ type: 'text', text: "I can't" }]);
    expect(folded.finishReason).toBe('refusal');
  });

  it('maps content_filter and gives tool calls without ids an id', async () => {
    const folded = foldEvents(await run([chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }), chunk({}, 'content_filter', usage)]));
    expect(folded.finishReason).toBe('content_filter');
    expect((folded.content[0] as { id: string }).id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('an empty stream that ends with [DONE] still starts and finishes', async () => {
    const events = await run([]);
    expect(events.map((event) => event.type)).toEqual(['message_start', 'finish']);
  });

  it('fails when the stream ends before any finish_reason', async () => {
    await expect(run([chunk({ content: 'hi' })], false)).rejects.toMatchObject({
      kind: 'upstream_error',
      message: 'upstream stream ended before a finish_reason',
    });
  });

  it('throws an error chunk as a GatewayError', async () => {
    const error = { error: { message: 'rate limited mid-stream', code: 429 } };
    await expect(run([chunk({ content: 'hi' }), JSON.stringify(error)])).rejects.toMatchObject({
      kind: 'rate_limited',
      message: 'rate limited mid-stream',
    });
  });

  it('throws on malformed chunks and on interleaved parallel tool arguments', async () => {
    await expect(run(['{not json'])).rejects.toBeInstanceOf(GatewayError);
    await expect(
      run([
        chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"a":' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      ]),
    ).rejects.toMatchObject({ kind: 'upstream_error', message: /interleaved/ });
  });
});
