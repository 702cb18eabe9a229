/**
 * Replays every recorded Responses answer through the openai-responses
 * adapter's translation path (the one Messages and content-generation clients
 * take): reasoning with encrypted content, streamed function calls, hosted web
 * and file search records, in-stream errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest, ThinkingPart, ToolCallPart } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { unpackReasoning } from '../../../src/upstreams/protocols/responses/reasoning-proof.js';
import type { ChatResult } from '../../../src/upstreams/types.js';
import { testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureChunks, fixtureFiles, jsonReply, sseReply } from '../support/fixtures.js';
import { asFolded, collect, foldEvents, type FoldedStream } from '../support/fold-events.js';

const DIALECT = 'openai-responses';
type Answer = Pick<FoldedStream, 'content' | 'finishReason' | 'usage'>;

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

function chatRequest(stream: boolean): ChatRequest {
  return { model: 'gpt-test', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream };
}

async function answer(reply: FakeReply, stream: boolean): Promise<Answer> {
  upstream.reply(reply);
  const result: ChatResult = await sendChat(openAiResponsesAdapter, chatRequest(stream), testCall({ baseUrl: `${upstream.origin}/v1` }));
  expect(result.stream).toBe(stream);
  return result.stream ? foldEvents(await collect(result.events)) : asFolded(result.response);
}

const replay = (file: string) => (file.endsWith('.chunks.txt') ? answer(sseReply(DIALECT, file, { pieceBytes: 113 }), true) : answer(jsonReply(DIALECT, file), false));

/** One of the four responses recorded one after the other in the reasoning stream. */
function reasoningTurn(turn: number): FakeReply {
  const lines = fixtureChunks(DIALECT, 'openai-reasoning-encrypted-content.1.chunks.txt');
  const starts = lines.flatMap((line, i) => (JSON.parse(line).type === 'response.created' ? [i] : []));
  const slice = lines.slice(starts[turn], starts[turn + 1]);
  const chunks = slice.map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks };
}

const texts = (result: Answer) => result.content.filter((part) => part.type === 'text').map((part) => part.text);
const calls = (result: Answer) => result.content.filter((part): part is ToolCallPart => part.type === 'tool_call');

const expectations: Record<string, (result: Answer) => void> = {
  'openai-pdf-input-file.1.json': (result) => {
    expect(texts(result)).toEqual(['Dummy PDF file']);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ inputTokens: 44, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  },
  'openai-pdf-input-file.1.chunks.txt': (result) => {
    expect(texts(result)).toEqual(['Dummy PDF file']);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ inputTokens: 44, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  },
  'openai-client-tool-search.2.json': (result) => {
    expect(calls(result)).toEqual([{ type: 'tool_call', id: 'call_heVrRaKZEJbsRvHvaEf5BLUI', name: 'get_weather', input: { location: 'San Francisco, CA', unit: 'fahrenheit' } }]);
    expect(result.finishReason).toBe('tool_use');
  },
  'openai-client-tool-search.2.chunks.txt': (result) => {
    expect(calls(result)).toHaveLength(1);
    expect(calls(result)[0].name).toBe('get_weather');
    expect(Object.keys(calls(result)[0].input).length).toBeGreaterThan(0);
    expect(result.finishReason).toBe('tool_use');
  },
  'openai-reasoning-encrypted-content.1.json': (result) => {
    expect(result.content.map((part) => part.type)).toEqual(['thinking', 'text']);
    const thinking = result.content[0] as ThinkingPart;
    expect(thinking.text).toMatch(/^\*\*Reporting final result\*\*/);
    expect(unpackReasoning(thinking.signature)).toEqual({
      id: 'rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e',
      encrypted: expect.stringMatching(/^gAAAAABpPMlc/),
    });
    expect(texts(result)[0]).toContain('Final result: 570');
    expect(result.usage).toEqual({ inputTokens: 865, outputTokens: 163, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 128 });
  },
  'openai-reasoning-encrypted-content.1.chunks.txt': () => {
    // Four responses in one file: replayed turn by turn below.
  },
  'openai-web-search-tool.1.json': (result) => {
    // Empty reasoning items and the hosted search records have no internal form; the cited answer remains.
    expect(result.content.map((part) => part.type)).toEqual(['text']);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ inputTokens: 19681 - 3712, outputTokens: 3773, cacheReadTokens: 3712, cacheWriteTokens: 0, reasoningTokens: 3136 });
  },
  'openai-file-search-tool.1.chunks.txt': (result) => {
    expect(result.content.map((part) => part.type)).toEqual(['text']);
    expect(texts(result)[0]).toMatch(/^According to the document, an embedding model converts/);
    expect(result.usage.cacheReadTokens).toBe(2304);
  },
  'openai-error.1.json': () => {
    // An error body: replayed with its HTTP status below.
  },
  'openai-error.1.chunks.txt': () => {
    // An in-stream failure: below.
  },
};

describe('openai-responses translation replays every recorded answer', () => {
  it('has an expectation for every fixture', () => {
    expect(fixtureFiles(DIALECT).filter((file) => !(file in expectations))).toEqual([]);
  });

  for (const [file, expectation] of Object.entries(expectations)) {
    if (file.startsWith('openai-error') || file === 'openai-reasoning-encrypted-content.1.chunks.txt') continue;
    it(file, async () => expectation(await replay(file)));
  }

  it('streams the reasoning tool loop, turn by turn', async () => {
    const first = await answer(reasoningTurn(0), true);
    expect(first.content.map((part) => part.type)).toEqual(['thinking', 'tool_call']);
    const thinking = first.content[0] as ThinkingPart;
    expect(thinking.text).toMatch(/^\*\*Calculating step-by-step using calculator\*\*/);
    expect(unpackReasoning(thinking.signature)?.id).toBe('rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9');
    expect(calls(first)[0]).toMatchObject({ name: 'calculator', input: { a: 12, b: 7, op: 'add' } });
    expect(first.finishReason).toBe('tool_use');
    for (const turn of [1, 2]) {
      const next = await answer(reasoningTurn(turn), true);
      expect(calls(next)).toHaveLength(1);
      expect(calls(next)[0].name).toBe('calculator');
    }
    const last = await answer(reasoningTurn(3), true);
    expect(texts(last)[0]).toContain('570');
    expect(last.finishReason).toBe('stop');
  });

  it('reports an error body with its status', async () => {
    const failure = await answer(jsonReply(DIALECT, 'openai-error.1.json', 429), false).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true });
    expect((failure as Error).message).toContain('exceeded your current quota');
  });

  it('throws an in-stream error as a gateway error', async () => {
    const failure = await answer(sseReply(DIALECT, 'openai-error.1.chunks.txt'), true).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'rate_limited', upstreamStatus: 429 });
    expect((failure as Error).message).toContain('exceeded your current quota');
  });

  it('fails a stream that ends before its terminal event', async () => {
    const reply = sseReply(DIALECT, 'openai-pdf-input-file.1.chunks.txt');
    const failure = await answer({ ...reply, chunks: reply.chunks!.slice(0, -1) }, true).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as Error).message).toContain('ended before response.completed');
  });
});
