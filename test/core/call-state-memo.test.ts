/** The memo of calls' sealed state: what it remembers, where it puts it back, and its bounds. */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest } from '../../src/core/chat.js';
import { CallStateMemo } from '../../src/core/call-state-memo.js';
import { sealEvents } from '../../src/core/reasoning-seal.js';
import type { ReasoningSealer } from '../../src/core/reasoning-state.js';

const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'w', input: {} });
const signed = (signature: string) => ({ type: 'thinking' as const, text: '', signature });
const replay = (content: ChatRequest['messages'][number]['content']): ChatRequest => ({
  model: 'm',
  stream: false,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content },
  ],
});
const turn = (request: ChatRequest) => request.messages[1].content;

describe('CallStateMemo', () => {
  it('remembers the state before a call (or after the last one) and restores it only where the replay lost all state', () => {
    const memo = new CallStateMemo({ maxEntries: 10, maxChars: 10_000, ttlMs: 1000 });
    memo.rememberAnswer('key1', [{ type: 'thinking', text: 'a thought', signature: 'swy1-thought' }, signed('swy1-a'), call('a'), call('b')]);
    memo.rememberAnswer('key1', [call('c'), signed('swy1-late')]);
    expect(turn(memo.restore('key1', replay([{ type: 'text', text: 'x' }, call('a'), call('b')])))).toEqual([{ type: 'text', text: 'x' }, signed('swy1-a'), call('a'), call('b')]);
    expect(turn(memo.restore('key1', replay([call('c')])))).toEqual([signed('swy1-late'), call('c')]);
    // The client kept the state: nothing added.
    const kept = replay([signed('swy1-a'), call('a')]);
    expect(memo.restore('key1', kept)).toBe(kept);
    // Another key's calls are not this key's.
    expect(turn(memo.restore('key2', replay([call('a')])))).toEqual([call('a')]);
  });

  it("is told a stream's call states by the seal pass, which passes the events on unchanged", async () => {
    const memo = new CallStateMemo({ maxEntries: 10, maxChars: 10_000, ttlMs: 1000 });
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const events: ChatEvent[] = [
      { type: 'message_start' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 0, signature: 'swy1-s' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'tool_call', id: 'a', name: 'w' } },
      { type: 'block_stop', index: 1 },
      { type: 'finish', reason: 'tool_use', usage },
    ];
    const seen: ChatEvent[] = [];
    const sealer = { seal: (state: { value: string }) => state.value } as unknown as ReasoningSealer;
    const onCallState = (callId: string, token: string) => memo.remember('k', callId, token);
    for await (const event of sealEvents(events, sealer, { origin: 'gemini', carryText: false, onCallState })) seen.push(event);
    expect(seen).toEqual(events);
    expect(turn(memo.restore('k', replay([call('a')])))).toEqual([signed('swy1-s'), call('a')]);
  });

  it("gives a signature streamed after the last call, at the answer's end, to that call; a text block in between claims none", async () => {
    const memo = new CallStateMemo({ maxEntries: 10, maxChars: 10_000, ttlMs: 1000 });
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const events: ChatEvent[] = [
      { type: 'block_start', index: 0, block: { type: 'tool_call', id: 'a', name: 'w' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 1, signature: 'swy1-late' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 2, signature: 'swy1-orphan' },
      { type: 'block_stop', index: 2 },
      { type: 'block_start', index: 3, block: { type: 'text' } },
      { type: 'block_stop', index: 3 },
      { type: 'block_start', index: 4, block: { type: 'tool_call', id: 'b', name: 'w' } },
      { type: 'block_stop', index: 4 },
      { type: 'finish', reason: 'tool_use', usage },
    ];
    const sealer = { seal: (state: { value: string }) => state.value } as unknown as ReasoningSealer;
    const told: Array<[string, string]> = [];
    for await (const _ of sealEvents(events, sealer, { origin: 'gemini', carryText: false, onCallState: (id, token) => told.push([id, token]) }));
    expect(told).toEqual([]);
    const late = events.slice(0, 5).concat(events.at(-1)!);
    for await (const _ of sealEvents(late, sealer, { origin: 'gemini', carryText: false, onCallState: (id, token) => memo.remember('k', id, token) }));
    expect(turn(memo.restore('k', replay([call('a')])))).toEqual([signed('swy1-late'), call('a')]);
  });

  it('forgets the least recently used past its size, and what is older than its time to live', () => {
    let now = 0;
    const memo = new CallStateMemo({ maxEntries: 2, maxChars: 10_000, ttlMs: 100, now: () => now });
    memo.remember('k', 'a', 'A');
    memo.remember('k', 'b', 'B');
    expect(memo.recall('k', 'a')).toBe('A');
    memo.remember('k', 'c', 'C');
    expect(memo.recall('k', 'b')).toBeUndefined();
    expect(memo.recall('k', 'a')).toBe('A');
    now = 150;
    expect(memo.recall('k', 'c')).toBeUndefined();
  });

  it('forgets the least recently used past its size in characters', () => {
    const memo = new CallStateMemo({ maxEntries: 100, maxChars: 30, ttlMs: 1000 });
    memo.remember('k', 'a', 'x'.repeat(10));
    memo.remember('k', 'b', 'y'.repeat(10));
    expect(memo.recall('k', 'a')).toBe('x'.repeat(10));
    memo.remember('k', 'c', 'z'.repeat(10));
    expect(memo.recall('k', 'b')).toBeUndefined();
    expect(memo.recall('k', 'a')).toBe('x'.repeat(10));
    expect(memo.recall('k', 'c')).toBe('z'.repeat(10));
  });
});
