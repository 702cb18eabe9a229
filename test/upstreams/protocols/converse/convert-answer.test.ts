/** Converse answers and ConverseStream events → the internal representation, with AWS's documented examples (test/fixtures/bedrock/). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../../src/core/chat.js';
import { readEventStream } from '../../../../src/upstreams/aws-event-stream.js';
import { fromConverseResponse } from '../../../../src/upstreams/protocols/converse/convert-response.js';
import { converseEvents } from '../../../../src/upstreams/protocols/converse/convert-stream.js';
import { encodeEventStream, type ConverseEvent } from '../../../support/fake-bedrock-converse.js';
import { collect, foldEvents } from '../../support/fold-events.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../fixtures/bedrock/${name}`, import.meta.url), 'utf8'));
const MODEL = 'amazon.nova-pro-v1:0';

async function* chunks(bytes: Buffer, size = 7): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
const events = (list: ConverseEvent[]): Promise<ChatEvent[]> => collect(converseEvents(readEventStream(chunks(encodeEventStream(list))), MODEL));

describe('fromConverseResponse', () => {
  it('reads the documented tool-use answer', () => {
    const response = fromConverseResponse(fixture('converse-tool-use.json').response, MODEL);
    expect(response.content).toEqual([{ type: 'tool_call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'top_song', input: { sign: 'WZPZ' } }]);
    expect(response.finishReason).toBe('tool_use');
    expect(response.model).toBe(MODEL);
    expect(response.id).toMatch(/^msg_bdrk_/);
  });

  it('reads reasoning, text and usage (Nova’s documented shape)', () => {
    const response = fromConverseResponse(fixture('converse-nova-response.json'), MODEL);
    expect(response.content).toEqual([
      { type: 'thinking', text: '[REDACTED]' },
      { type: 'text', text: 'Here is the answer.' },
    ]);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({ inputTokens: 21, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('keeps a signature and redacted reasoning, maps cache counters and filtered answers', () => {
    const response = fromConverseResponse(
      {
        output: {
          message: {
            role: 'assistant',
            content: [{ reasoningContent: { reasoningText: { text: 'hm', signature: 'sig' } } }, { reasoningContent: { redactedContent: 'AAAA' } }, { text: '' }],
          },
        },
        stopReason: 'guardrail_intervened',
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 30, cacheReadInputTokens: 20, cacheWriteInputTokens: 5 },
        additionalModelResponseFields: { stop_sequence: null },
      },
      MODEL,
    );
    expect(response.content.slice(0, 2)).toEqual([
      { type: 'thinking', text: 'hm', signature: 'sig' },
      { type: 'thinking', text: '', redactedData: 'AAAA' },
    ]);
    expect(response.finishReason).toBe('content_filter');
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 2, cacheReadTokens: 20, cacheWriteTokens: 5 });
    expect(fromConverseResponse({ output: { message: { content: [] } }, stopReason: 'content_filtered' }, MODEL).finishReason).toBe('content_filter');
    expect(fromConverseResponse({ output: { message: { content: [] } }, stopReason: 'max_tokens' }, MODEL).finishReason).toBe('length');
    const stopped = fromConverseResponse({ output: { message: { content: [] } }, stopReason: 'stop_sequence', additionalModelResponseFields: { stop_sequence: 'END' } }, MODEL);
    expect(stopped).toMatchObject({ finishReason: 'stop_sequence', stopSequence: 'END' });
  });

  it('refuses an answer with no message content as a retryable upstream error', () => {
    expect(() => fromConverseResponse({ message: 'hi' } as never, MODEL)).toThrow(expect.objectContaining({ kind: 'upstream_error', retryable: true }));
  });
});

describe('converseEvents', () => {
  it('folds the tool stream: text opened by its delta, the tool call by its start, usage after messageStop', async () => {
    const folded = foldEvents(await events(fixture('converse-stream-tool.json')));
    expect(folded.model).toBe(MODEL);
    expect(folded.content).toEqual([
      { type: 'text', text: 'Let me look that up.' },
      { type: 'tool_call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'top_song', input: { sign: 'WZPZ' } },
    ]);
    expect(folded.finishReason).toBe('tool_use');
    expect(folded.usage).toEqual({ inputTokens: 412, outputTokens: 53, cacheReadTokens: 800, cacheWriteTokens: 200 });
  });

  it('streams reasoning with its signature, and redacted reasoning', async () => {
    const folded = foldEvents(
      await events([
        { type: 'messageStart', payload: { role: 'assistant' } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Thinking' } } } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig' } } } },
        { type: 'contentBlockStop', payload: { contentBlockIndex: 0 } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: 'AAAA' } } } },
        { type: 'contentBlockStop', payload: { contentBlockIndex: 1 } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 2, delta: { text: 'Done.' } } },
        { type: 'contentBlockStop', payload: { contentBlockIndex: 2 } },
        { type: 'messageStop', payload: { stopReason: 'end_turn' } },
        { type: 'metadata', payload: { usage: { inputTokens: 5, outputTokens: 7 } } },
      ]),
    );
    expect(folded.content).toEqual([
      { type: 'thinking', text: 'Thinking', signature: 'sig' },
      { type: 'thinking', text: '', redactedData: 'AAAA' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(folded.finishReason).toBe('stop');
  });

  it('finishes with the usage unreported when no metadata follows messageStop', async () => {
    const list = await events([
      { type: 'messageStart', payload: { role: 'assistant' } },
      { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hi' } } },
      { type: 'messageStop', payload: { stopReason: 'max_tokens' } },
    ]);
    expect(list.at(-1)).toMatchObject({ type: 'finish', reason: 'length', unreported: true });
    expect(list.filter((event) => event.type === 'block_stop')).toHaveLength(1);
  });

  it('throws a cut stream as retryable, and a stream exception as the error it reports', async () => {
    await expect(
      events([
        { type: 'messageStart', payload: { role: 'assistant' } },
        { type: 'contentBlockDelta', payload: { contentBlockIndex: 0, delta: { text: 'Hi' } } },
      ]),
    ).rejects.toMatchObject({ kind: 'upstream_error', retryable: true, message: expect.stringMatching(/before messageStop/) });
    await expect(
      events([
        { type: 'messageStart', payload: { role: 'assistant' } },
        { type: 'throttlingException', payload: { message: 'Too many requests' }, messageType: 'exception' },
      ]),
    ).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
    await expect(events([{ type: 'modelStreamErrorException', payload: { message: 'boom' }, messageType: 'exception' }])).rejects.toMatchObject({
      kind: 'upstream_error',
      retryable: true,
    });
  });
});
