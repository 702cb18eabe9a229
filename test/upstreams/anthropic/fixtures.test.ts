/** Replays every recorded Messages answer through the anthropic adapter's translation path. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest, ToolCallPart } from '../../../src/core/chat.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import type { ChatResult } from '../../../src/upstreams/types.js';
import { testCall, sendChat } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { fixtureFiles, jsonReply, sseReply } from '../support/fixtures.js';
import { asFolded, collect, foldEvents, type FoldedStream } from '../support/fold-events.js';

const DIALECT = 'anthropic-messages';
type Answer = Pick<FoldedStream, 'content' | 'finishReason' | 'usage'>;

let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(() => upstream.close());

function chatRequest(stream: boolean): ChatRequest {
  return { model: 'claude-test', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream };
}

async function replay(file: string): Promise<Answer> {
  const stream = file.endsWith('.chunks.txt');
  upstream.reply(stream ? sseReply(DIALECT, file) : jsonReply(DIALECT, file));
  const result: ChatResult = await sendChat(anthropicAdapter, chatRequest(stream), testCall({ baseUrl: upstream.origin }));
  expect(result.stream).toBe(stream);
  return result.stream ? foldEvents(await collect(result.events)) : asFolded(result.response);
}

const texts = (answer: Answer) => answer.content.filter((part) => part.type === 'text').map((part) => part.text);

const expectations: Record<string, (answer: Answer) => void> = {
  'anthropic-text.json': (answer) => {
    expect(texts(answer)).toEqual(["Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?"]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 12, outputTokens: 29, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  },
  'anthropic-text.chunks.txt': (answer) => {
    expect(texts(answer)).toEqual(["Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?"]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({ inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  },
  'anthropic-tool-no-args.chunks.txt': (answer) => {
    expect(answer.content).toEqual([
      { type: 'text', text: "I'll update the issue list for you." },
      { type: 'tool_call', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} },
    ]);
    expect(answer.finishReason).toBe('tool_use');
    expect(answer.usage).toMatchObject({ inputTokens: 565, outputTokens: 48 });
  },
  'anthropic-json-tool.1.json': (answer) => {
    expect(answer.content).toHaveLength(1);
    const call = answer.content[0];
    expect(call).toMatchObject({ type: 'tool_call', id: 'toolu_01Q9ExVZnzZj7E2QQYHYtNUa', name: 'json' });
    const { elements } = (call as ToolCallPart).input as { elements: unknown[] };
    expect(elements).toHaveLength(4);
    expect(elements[2]).toEqual({
      location: 'Paris',
      temperature: 23,
      condition: 'cloudy',
    });
    expect(answer.finishReason).toBe('tool_use');
    expect(answer.usage).toMatchObject({ inputTokens: 1151, outputTokens: 87 });
  },
  'anthropic-claude-opus-5-reasoning-high.1.json': (answer) => {
    expect(answer.content.map((part) => part.type)).toEqual(['thinking', 'text']);
    const thinking = answer.content[0] as { text: string; signature?: string };
    expect(thinking.text).toMatch(/^I need to find all roots/);
    expect(thinking.signature).toMatch(/^CAISqwQK/);
    expect(texts(answer)[0]).toMatch(/All three relations hold/);
    expect(answer.usage).toEqual({
      inputTokens: 51,
      outputTokens: 1699,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 139,
    });
  },
  'anthropic-combined-context-editing.1.chunks.txt': (answer) => {
    expect(answer.content.map((part) => part.type)).toEqual(['thinking', 'text']);
    const thinking = answer.content[0] as { text: string; signature?: string };
    expect(thinking.text.length).toBe(563);
    expect(thinking.signature).toMatch(/^EtQFCkYICxgCKkC6mX3q/);
    expect(thinking.signature).toHaveLength(972);
    expect(texts(answer)[0]).toMatch(/^# 25 × 37/);
    expect(texts(answer)[0]).toMatch(/925\*\*$/);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toMatchObject({ inputTokens: 50, outputTokens: 485 });
  },
  'anthropic-json-output-format.1.json': (answer) => {
    expect(JSON.parse(texts(answer)[0]).recipe.name).toBe('Classic Lasagna');
    expect(answer.finishReason).toBe('stop');
  },
  'anthropic-refusal.json': (answer) => {
    expect(answer.content).toEqual([]);
    expect(answer.finishReason).toBe('refusal');
    expect(answer.usage).toMatchObject({ inputTokens: 18, outputTokens: 5 });
  },
  'anthropic-web-search-tool.1.json': (answer) => {
    // Server-side search blocks are left out; the text blocks (with their citations) remain.
    expect(answer.content.every((part) => part.type === 'text')).toBe(true);
    expect(answer.content).toHaveLength(8);
    const cited = answer.content.filter((part) => part.type === 'text' && part.citations?.length);
    expect(cited).toHaveLength(3);
    expect((cited[0] as { citations: Array<{ type: string }> }).citations[0].type).toBe('web_search_result_location');
    expect(answer.usage).toMatchObject({ inputTokens: 27118, outputTokens: 600 });
  },
  'anthropic-code-execution-20260120-prompt-cache.1.chunks.txt': (answer) => {
    // Server-side code execution blocks are skipped; the answer's text is renumbered to block 0.
    expect(answer.content).toEqual([{ type: 'text', text: 'The sum of the squares of the numbers 1 through 12 is **650**.' }]);
    expect(answer.finishReason).toBe('stop');
    expect(answer.usage).toEqual({
      inputTokens: 6,
      outputTokens: 198,
      cacheReadTokens: 6289,
      cacheWriteTokens: 3337,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
    });
  },
};

describe('anthropic adapter replays every Messages fixture', () => {
  it('has an expectation for every fixture file', () => {
    expect(fixtureFiles(DIALECT).sort()).toEqual(Object.keys(expectations).sort());
  });

  for (const [file, check] of Object.entries(expectations)) {
    it(file, async () => check(await replay(file)));
  }

  it('stream start carries the id, model and the counters known at start', async () => {
    upstream.reply(sseReply(DIALECT, 'anthropic-code-execution-20260120-prompt-cache.1.chunks.txt'));
    const result = await sendChat(anthropicAdapter, chatRequest(true), testCall({ baseUrl: upstream.origin }));
    if (!result.stream) throw new Error('expected a stream');
    const folded = foldEvents(await collect(result.events));
    expect(folded.id).toBe('msg_011CdYfpjpVtBoXyXCQD1tQP');
    expect(folded.model).toBe('claude-sonnet-5');
    expect(folded.startUsage).toMatchObject({ inputTokens: 2, cacheWriteTokens: 3068, cacheReadTokens: 0 });
  });

  it('plain answers keep the upstream id and model', async () => {
    upstream.reply(jsonReply(DIALECT, 'anthropic-text.json'));
    const result = await sendChat(anthropicAdapter, chatRequest(false), testCall({ baseUrl: upstream.origin }));
    if (result.stream) throw new Error('expected a plain answer');
    expect(result.response.id).toBe('msg_01VdEjxAP5ahtHKrrRdNBteQ');
    expect(result.response.model).toBe('claude-sonnet-4-5-20250929');
    expect(result.response.stopSequence).toBeNull();
  });

  for (const lineEnding of ['\r\n', '\r'] as const) {
    it(`parses streams with ${JSON.stringify(lineEnding)} line endings cut into 7-byte pieces`, async () => {
      upstream.reply(sseReply(DIALECT, 'anthropic-tool-no-args.chunks.txt', { lineEnding, pieceBytes: 7 }));
      const result = await sendChat(anthropicAdapter, chatRequest(true), testCall({ baseUrl: upstream.origin }));
      if (!result.stream) throw new Error('expected a stream');
      expectations['anthropic-tool-no-args.chunks.txt'](foldEvents(await collect(result.events)));
    });
  }
});
