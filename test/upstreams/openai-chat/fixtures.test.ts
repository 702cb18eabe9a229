/** Replays every recorded chat-completions answer through the openai-chat adapter. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureChunks, fixtureFiles, jsonReply, sseReply } from '../support/fixtures.js';
import { asFolded, collect, foldEvents, type FoldedStream } from '../support/fold-events.js';

const DIALECT = 'openai-chat';
type Answer = Pick<FoldedStream, 'content' | 'finishReason' | 'usage'>;

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

const chatRequest = (stream: boolean): ChatRequest => ({
  model: 'gpt-test',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream,
});

async function replay(file: string): Promise<Answer> {
  const stream = file.endsWith('.chunks.txt');
  upstream.reply(stream ? sseReply(DIALECT, file) : jsonReply(DIALECT, file));
  const result = await sendChat(openAiChatAdapter, chatRequest(stream), testCall({ baseUrl: `${upstream.origin}/v1` }));
  expect(result.stream).toBe(stream);
  return result.stream ? foldEvents(await collect(result.events)) : asFolded(result.response);
}

/** What the deltas of a recorded stream add up to, read straight from the fixture. */
function recordedDeltas(file: string, field: 'content' | 'reasoning_content'): string {
  return fixtureChunks(DIALECT, file)
    .map((line) => JSON.parse(line).choices?.[0]?.delta?.[field] ?? '')
    .join('');
}

const kinds = (answer: Answer) => answer.content.map((part) => part.type);
const textOf = (answer: Answer, type: 'text' | 'thinking') => answer.content.filter((part) => part.type === type).map((part) => (part as { text: string }).text);

const expectations: Record<string, (answer: Answer) => void> = {
  'openai-text.json': (answer) => {
    expect(kinds(answer)).toEqual(['text']);
    expect(textOf(answer, 'text')[0]).toMatch(/^\*\*Holiday Name:\*\* Galaxy Day/);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 16, outputTokens: 363, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  },
  'openai-text.chunks.txt': (answer) => {
    expect(kinds(answer)).toEqual(['text']);
    expect(textOf(answer, 'text')[0]).toBe(recordedDeltas('openai-text.chunks.txt', 'content'));
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 16, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  },
  'deepseek-tool-call.json': (answer) => {
    expect(kinds(answer)).toEqual(['thinking', 'tool_call']);
    expect(textOf(answer, 'thinking')[0]).toMatch(/^The user is asking for the weather/);
    expect(answer.content[1]).toEqual({
      type: 'tool_call',
      id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
      name: 'weather',
      input: { location: 'San Francisco' },
    });
    expect(answer.finishReason).toBe('tool_use');
    // prompt_tokens 339 include 320 cached ones.
    expect(answer.usage).toEqual({ inputTokens: 19, outputTokens: 92, cacheReadTokens: 320, cacheWriteTokens: 0, reasoningTokens: 48 });
  },
  'alibaba-tool-call.chunks.txt': (answer) => {
    expect(answer.content).toEqual([{ type: 'tool_call', id: 'call_eee11723464a4b9eb8cee71d', name: 'weather', input: { location: 'San Francisco' } }]);
    expect(answer.finishReason).toBe('tool_use');
    expect(answer.usage).toEqual({ inputTokens: 295, outputTokens: 22, cacheReadTokens: 0, cacheWriteTokens: 0 });
  },
  'deepseek-reasoning.chunks.txt': (answer) => {
    expect(kinds(answer)).toEqual(['thinking', 'text']);
    expect(textOf(answer, 'thinking')[0]).toBe(recordedDeltas('deepseek-reasoning.chunks.txt', 'reasoning_content'));
    expect(textOf(answer, 'text')[0]).toBe(recordedDeltas('deepseek-reasoning.chunks.txt', 'content'));
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 18, outputTokens: 219, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 205 });
  },
  'groq-reasoning.json': (answer) => {
    expect(kinds(answer)).toEqual(['thinking', 'text']);
    expect(textOf(answer, 'thinking')[0]).toMatch(/^Okay, so the user is asking/);
    expect(textOf(answer, 'text')[0]).toMatch(/contains \*\*3\*\* instances/);
    expect(answer.usage).toEqual({ inputTokens: 17, outputTokens: 649, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 570 });
  },
  'deepseek-json.json': (answer) => {
    expect(kinds(answer)).toEqual(['thinking', 'text']);
    expect(JSON.parse(textOf(answer, 'text')[0])).toEqual({ location: 'San Francisco', condition: 'cloudy', temperature: 7 });
    expect(answer.usage).toMatchObject({ inputTokens: 175, cacheReadTokens: 320, outputTokens: 144, reasoningTokens: 118 });
  },
  'perplexity-citations.json': (answer) => {
    expect(kinds(answer)).toEqual(['text']);
    expect(textOf(answer, 'text')[0]).toMatch(/\[2\]\[3\]\[5\]\[7\]/);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 10, outputTokens: 251, cacheReadTokens: 0, cacheWriteTokens: 0 });
  },
  'groq-tool-call.chunks.txt': (answer) => {
    expect(answer.content).toEqual([{ type: 'tool_call', id: 'tk85n1k4m', name: 'weather', input: {} }]);
    expect(answer.finishReason).toBe('tool_use');
    expect(answer.usage).toEqual({ inputTokens: 210, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 });
  },
};

describe('openai-chat adapter replays every chat-completions fixture', () => {
  it('has an expectation for every fixture file', () => {
    const errorFiles = ['reasoning-model-legacy-parameter-error.json'];
    expect(fixtureFiles(DIALECT).sort()).toEqual([...Object.keys(expectations), ...errorFiles].sort());
  });

  for (const [file, check] of Object.entries(expectations)) {
    it(file, async () => check(await replay(file)));
  }

  it('reasoning-model-legacy-parameter-error.json (as a 400) → invalid_request with the upstream message', async () => {
    upstream.reply(jsonReply(DIALECT, 'reasoning-model-legacy-parameter-error.json', 400));
    const failure = await sendChat(openAiChatAdapter, chatRequest(false), testCall({ baseUrl: `${upstream.origin}/v1` })).catch((e) => e);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ kind: 'invalid_request', status: 400, retryable: false, upstreamStatus: 400 });
    expect(failure.message).toMatch(/^Unsupported parameter: 'max_tokens'/);
  });

  it('the stream starts with the upstream id and model; usage waits for the usage-only chunk', async () => {
    upstream.reply(sseReply(DIALECT, 'openai-text.chunks.txt', { pieceBytes: 333 }));
    const result = await sendChat(openAiChatAdapter, chatRequest(true), testCall({ baseUrl: `${upstream.origin}/v1` }));
    if (!result.stream) throw new Error('expected a stream');
    const events = await collect(result.events);
    expect(events[0]).toEqual({ type: 'message_start', id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0', model: 'gpt-4.1-nano-2025-04-14' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop', usage: { outputTokens: 300 } });
    expect(events.filter((event) => event.type === 'text_delta')).toHaveLength(300);
  });
});
