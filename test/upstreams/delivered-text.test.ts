/**
 * What each pass-through tap says the client received, and which usage it
 * hands on: the text, tool-call arguments and reasoning of its dialect's
 * events, counted once committed (their chunk was written); output counters
 * only once the upstream's final usage went by, never a placeholder. And the
 * Gemini JSON-array stream form cut short: read from the elements whole in
 * what the client received. A plain answer without usage: its text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagesJsonUsageTap, MessagesStreamUsageTap } from '../../src/upstreams/protocols/messages/usage-tap.js';
import { anthropicAdapter } from '../../src/upstreams/anthropic/index.js';
import { DeliveredText } from '../../src/upstreams/delivered-text.js';
import { geminiAdapter } from '../../src/upstreams/gemini/index.js';
import { GeminiJsonUsageTap, GeminiSseUsageTap } from '../../src/upstreams/protocols/generate/usage-tap.js';
import { ChatCompletionJsonUsageTap, ChatCompletionStreamUsageTap } from '../../src/upstreams/protocols/chat-completions/usage-tap.js';
import { ResponsesJsonUsageTap, ResponsesStreamUsageTap } from '../../src/upstreams/protocols/responses/usage-tap.js';
import { wholeElements } from '../../src/upstreams/pass-through.js';
import type { StreamTap } from '../../src/upstreams/pass-through-stream.js';
import { testCall } from './support/call.js';
import { startFakeUpstream, type FakeUpstream } from './support/fake-upstream.js';

/** Feeds events (name, data) to a tap as the guard would, then commits them. */
function feed(tap: StreamTap, events: Array<[string | undefined, unknown]>): void {
  for (const [event, data] of events) tap.see({ event, data: JSON.stringify(data) } as never, data);
  tap.delivered!.commit();
}

describe('delivered text', () => {
  it('counts pieces only once committed, in order', () => {
    const text = new DeliveredText();
    text.add('one ');
    text.add(undefined);
    text.add('');
    text.commit();
    text.add('two');
    expect(text.text()).toBe('one ');
    text.commit();
    expect(text.text()).toBe('one two');
  });
});

describe('the Messages tap', () => {
  it('reads text, tool input and thinking; message_start’s output count is never handed on', () => {
    const tap = new MessagesStreamUsageTap();
    feed(tap, [
      ['message_start', { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 30, output_tokens: 1, cache_read_input_tokens: 4 } } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi. ' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }],
    ]);
    expect(tap.delivered.text()).toBe('hmm Hi. {"city":');
    expect(tap.usage()).toEqual({ inputTokens: 30, cacheReadTokens: 4, cacheWriteTokens: 0 });
    feed(tap, [['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 17 } }]]);
    expect(tap.usage()).toMatchObject({ inputTokens: 30, outputTokens: 17, cacheReadTokens: 4 });
  });
});

describe('the Chat Completions tap', () => {
  it('reads content, reasoning, refusals and tool-call arguments; a running usage before the finish is the prompt’s only', () => {
    const tap = new ChatCompletionStreamUsageTap();
    const usage = { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 };
    feed(tap, [
      [undefined, { id: 'c', choices: [{ index: 0, delta: { reasoning_content: 'think ' } }], usage }],
      [undefined, { id: 'c', choices: [{ index: 0, delta: { reasoning: 'more ' } }] }],
      [undefined, { id: 'c', choices: [{ index: 0, delta: { content: 'Sure. ' } }] }],
      [undefined, { id: 'c', choices: [{ index: 0, delta: { refusal: 'No. ' } }] }],
      [
        undefined,
        {
          id: 'c',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index: 0, function: { name: 'f', arguments: '{"a":' } },
                  { index: 1, function: { arguments: '1}' } },
                ],
              },
            },
          ],
        },
      ],
    ]);
    expect(tap.delivered.text()).toBe('think more Sure. No. {"a":1}');
    expect(tap.usage()).toEqual({ inputTokens: 11, cacheReadTokens: 0, cacheWriteTokens: 0 });
    feed(tap, [
      [undefined, { id: 'c', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
      [undefined, { id: 'c', choices: [], usage: { prompt_tokens: 11, completion_tokens: 40, total_tokens: 51 } }],
    ]);
    expect(tap.usage()).toMatchObject({ inputTokens: 11, outputTokens: 40 });
  });
});

describe('the Responses tap', () => {
  it('reads every delta the client sees; only a terminal event’s usage is final', () => {
    const tap = new ResponsesStreamUsageTap();
    const types = [
      'response.reasoning_summary_text.delta',
      'response.reasoning_text.delta',
      'response.output_text.delta',
      'response.refusal.delta',
      'response.function_call_arguments.delta',
      'response.custom_tool_call_input.delta',
    ];
    feed(tap, [
      ['response.created', { type: 'response.created', response: { id: 'resp_1', usage: { input_tokens: 8, output_tokens: 0, total_tokens: 8 } } }],
      ...types.map((type, i): [string, unknown] => [type, { type, delta: `${i}` }]),
      [undefined, { type: 'response.output_text.done', text: 'not again' }],
    ]);
    expect(tap.delivered.text()).toBe('012345');
    expect(tap.usage()).toMatchObject({ inputTokens: 8 });
    expect(tap.usage()!.outputTokens).toBeUndefined();
    feed(tap, [['response.completed', { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 8, output_tokens: 21, total_tokens: 29 } } }]]);
    expect(tap.usage()).toMatchObject({ inputTokens: 8, outputTokens: 21 });
  });
});

describe('the Gemini tap', () => {
  it('reads text, thoughts and function-call arguments (whole, or Vertex AI’s streamed values); a running candidatesTokenCount is no final count', () => {
    const tap = new GeminiSseUsageTap();
    const running = { promptTokenCount: 12, candidatesTokenCount: 3, totalTokenCount: 15 };
    feed(tap, [
      [undefined, { candidates: [{ content: { parts: [{ text: 'pondering ', thought: true }, { text: 'Answer ' }] } }], usageMetadata: running }],
      [undefined, { candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: { q: 'x' } } }] } }], usageMetadata: running }],
      [
        undefined,
        {
          candidates: [
            {
              content: {
                parts: [
                  {
                    functionCall: {
                      name: 'g',
                      partialArgs: [
                        { jsonPath: '$.q', stringValue: 'ab', willContinue: true },
                        { jsonPath: '$.n', numberValue: 3 },
                      ],
                    },
                  },
                ],
              },
            },
          ],
        },
      ],
    ]);
    expect(tap.delivered.text()).toBe('pondering Answer {"q":"x"}ab3');
    expect(tap.usage()).toEqual({ inputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 });
    feed(tap, [[undefined, { candidates: [{ content: { parts: [] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 30, totalTokenCount: 42 } }]]);
    expect(tap.usage()).toMatchObject({ inputTokens: 12, outputTokens: 30 });
  });

  it('an error chunk ends the stream without making the running count final', () => {
    const tap = new GeminiSseUsageTap();
    feed(tap, [
      [undefined, { candidates: [{ content: { parts: [{ text: 'Partial' }] } }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3 } }],
      [undefined, { error: { code: 500, message: 'internal', status: 'INTERNAL' } }],
    ]);
    expect(tap.ended()).toBe(true);
    expect(tap.usage()).toEqual({ inputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('plain answers, read only when their usage is missing', () => {
  it('Messages: text, thinking and tool input', () => {
    const tap = new MessagesJsonUsageTap();
    tap.read({
      id: 'm',
      content: [
        { type: 'thinking', thinking: 'hmm ' },
        { type: 'text', text: 'Hi ' },
        { type: 'tool_use', name: 'f', input: { a: 1 } },
      ],
    });
    expect(tap.answerText()).toBe('hmm Hi {"a":1}');
  });

  it('Chat Completions: content, reasoning, refusal and tool-call arguments', () => {
    const tap = new ChatCompletionJsonUsageTap();
    tap.read({ choices: [{ message: { reasoning_content: 'r ', content: 'c ', refusal: 'no ', tool_calls: [{ function: { name: 'f', arguments: '{}' } }] } }] });
    expect(tap.answerText()).toBe('r c no {}');
  });

  it('Responses: output text, refusals, tool input and reasoning', () => {
    const tap = new ResponsesJsonUsageTap();
    tap.read({
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 's ' }] },
        {
          type: 'message',
          content: [
            { type: 'output_text', text: 't ' },
            { type: 'refusal', refusal: 'no ' },
          ],
        },
        { type: 'function_call', name: 'f', arguments: '{"x":2}' },
        { type: 'custom_tool_call', name: 'g', input: 'raw' },
      ],
    });
    expect(tap.answerText()).toBe('s t no {"x":2}raw');
  });

  it('Gemini: every part of a whole answer', () => {
    const tap = new GeminiJsonUsageTap();
    tap.read({ candidates: [{ content: { parts: [{ text: 'one ' }, { functionCall: { name: 'f', args: { b: true } } }] } }] });
    expect(tap.answerText()).toBe('one {"b":true}');
  });
});

describe('answers read from a fake upstream', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterAll(() => upstream.close());

  it('finds the elements whole in a prefix, minding braces in strings', () => {
    const prefix = Buffer.from('[{"a":"}{\\"]"},\r\n{"b":[1,{"c":2}]}\r\n,{"d":"cut');
    expect(wholeElements(prefix)).toEqual([{ a: '}{"]' }, { b: [1, { c: 2 }] }]);
  });

  it('a plain answer without usage is delivered whole, its text read on demand', async () => {
    upstream.reply({ status: 200, body: JSON.stringify({ id: 'msg_1', type: 'message', content: [{ type: 'text', text: 'plain text' }] }) });
    const result = await anthropicAdapter.passThrough!(
      { rawBody: Buffer.from('{"model":"m"}'), body: { model: 'm' }, stream: false },
      testCall({ baseUrl: upstream.origin, upstreamModel: 'm', type: 'anthropic' }),
    );
    expect(result.usage()).toBeUndefined();
    expect(result.delivered!.text()).toBe('plain text');
  });

  it('charges the text of the elements the client received, with their prompt count and no running output count', async () => {
    const element = (text: string, count: number) => JSON.stringify({ candidates: [{ content: { parts: [{ text }] } }], usageMetadata: { promptTokenCount: 9, candidatesTokenCount: count } });
    const pieces = [`[${element('Hello ', 1)}`, `,\r\n${element('there', 2)}`, `,\r\n${element(' never', 3).slice(0, 20)}`];
    upstream.reply({ status: 200, headers: { 'content-type': 'application/json' }, chunks: pieces, cutAfterChunks: pieces.length });
    const result = await geminiAdapter.passThrough!(
      { rawBody: Buffer.from('{}'), body: {}, stream: true, method: 'streamGenerateContent' },
      testCall({ baseUrl: upstream.origin, upstreamModel: 'g', type: 'gemini' }),
    );
    const received: Buffer[] = [];
    await expect(
      (async () => {
        for await (const chunk of result.body) {
          received.push(Buffer.from(chunk));
          result.delivered!.commit();
        }
      })(),
    ).rejects.toMatchObject({ kind: expect.any(String) });
    expect(Buffer.concat(received).toString('utf8')).toBe(pieces.join(''));
    expect(result.delivered!.text()).toBe('Hello there');
    expect(result.usage()).toEqual({ inputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});
