/** Prompt-cache breakpoints on a translated Messages body: the client's, else the gateway's, at most four. */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, FunctionTool } from '../../../src/core/chat.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import { describePlan } from '../../../src/core/translation-plan.js';
import { planOf } from '../support/call.js';

type Block = Record<string, unknown>;
const ephemeral = { type: 'ephemeral' };
const oneHour = { type: 'ephemeral', ttl: '1h' };
const tool = (name: string): FunctionTool => ({ type: 'function', name, parameters: { type: 'object' } });

/** A tool loop of three turns, as a Responses or Chat Completions client sends it. */
const loop: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'list the files' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', text: 'ls', signature: 'sig', origin: 'anthropic' },
      { type: 'tool_call', id: 'toolu_1', name: 'shell', input: { cmd: 'ls' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }] }] },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'one file' },
      { type: 'thinking', text: 'done', signature: 'sig2', origin: 'anthropic' },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
];
const session: ChatRequest = { model: 'm', system: 'you are terse', tools: [tool('shell'), tool('read')], messages: loop, stream: false };

function build(request: ChatRequest, settings: Record<string, unknown> = {}) {
  return toMessagesRequest(request, 'claude-x', settings).body as { system?: unknown; tools?: Block[]; messages: Array<{ content: Block[] }> };
}

function marksOf(body: ReturnType<typeof build>): string[] {
  const where: string[] = [];
  body.tools?.forEach((t, i) => t.cache_control && where.push(`tool ${i}`));
  if (Array.isArray(body.system)) (body.system as Block[]).forEach((b) => b.cache_control && where.push('system'));
  body.messages.forEach((m, i) => m.content.forEach((b, j) => b.cache_control && where.push(`message ${i} block ${j} ${String(b.type)}`)));
  return where;
}

describe('breakpoints the gateway places when the client placed none', () => {
  it('marks the end of the tools, of the system prompt, and the last cacheable block of the last two messages', () => {
    const body = build(session);
    expect(marksOf(body)).toEqual(['tool 1', 'system', 'message 3 block 0 text', 'message 4 block 0 text']);
    expect(body.system).toEqual([{ type: 'text', text: 'you are terse', cache_control: ephemeral }]);
    expect(body.tools![1]).toEqual({ name: 'read', input_schema: { type: 'object' }, cache_control: ephemeral });
  });

  it("moves with the conversation: the previous turn's last message is marked on the next turn", () => {
    const first = build({ ...session, messages: loop.slice(0, 3) });
    expect(marksOf(first).slice(2)).toEqual(['message 1 block 1 tool_use', 'message 2 block 0 tool_result']);
    const next = build({ ...session, messages: loop });
    expect(marksOf(next).slice(2)).toEqual(['message 3 block 0 text', 'message 4 block 0 text']);
  });

  it('never marks a thinking block: the last block that can carry a mark does', () => {
    const body = build({ ...session, messages: loop.slice(0, 4) });
    expect(body.messages[3].content.map((b) => b.type)).toEqual(['text', 'thinking']);
    expect(marksOf(body).at(-1)).toBe('message 3 block 0 text');
  });

  it('asks for an hour when the client asked for 24-hour retention', () => {
    const body = build({ ...session, cache: { retention: '24h', key: 'k' } });
    expect(body.system).toEqual([{ type: 'text', text: 'you are terse', cache_control: oneHour }]);
    expect(body.messages.at(-1)!.content.at(-1)!.cache_control).toEqual(oneHour);
  });

  it('leaves a typed tool the client wrote untouched, marking a copy', () => {
    const raw = { type: 'web_search_20250305', name: 'web_search' };
    const body = build({ ...session, tools: [{ type: 'builtin', dialect: 'messages', kind: raw.type, capability: 'web_search', raw }] });
    expect(body.tools).toEqual([{ ...raw, cache_control: ephemeral }]);
    expect(raw).not.toHaveProperty('cache_control');
  });

  it('places none on a channel with cacheBreakpoints: false', () => {
    expect(marksOf(build(session, { cacheBreakpoints: false }))).toEqual([]);
  });

  it("a request without tools or system gets the conversation's two", () => {
    expect(marksOf(build({ model: 'm', messages: loop.slice(0, 1), stream: false }))).toEqual(['message 0 block 0 text']);
  });
});

describe('breakpoints the client placed', () => {
  it('are sent where it placed them, with their lifetime, and the gateway adds none', () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'long document', cache: { ttl: '1h' } },
          { type: 'text', text: 'question' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
      { role: 'user', content: [{ type: 'text', text: 'follow-up' }] },
    ];
    const body = build({ ...session, messages, cache: { system: { ttl: '1h' } } });
    expect(marksOf(body)).toEqual(['system', 'message 0 block 0 text']);
    expect(body.messages[0].content[0].cache_control).toEqual(oneHour);
  });

  it('a mark on a system turn marks the system prompt it is folded into', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'system', content: [{ type: 'text', text: 'env', cache: { ttl: '5m' } }] },
    ];
    const body = build({ ...session, tools: undefined, messages });
    expect(body.system).toEqual([{ type: 'text', text: 'you are terse\n\nenv', cache_control: ephemeral }]);
    expect(marksOf(body)).toEqual(['system']);
  });

  it('lengthens a five-minute mark that precedes a one-hour one, which Anthropic would refuse', () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'doc', cache: { ttl: '1h' } },
          { type: 'text', text: 'q', cache: { ttl: '5m' } },
        ],
      },
    ];
    const body = build({ ...session, tools: undefined, messages, cache: { system: { ttl: '5m' } } });
    expect(body.system).toEqual([{ type: 'text', text: 'you are terse', cache_control: oneHour }]);
    expect(body.messages[0].content.map((b) => b.cache_control)).toEqual([oneHour, ephemeral]);
  });

  it("keeps the last four, Anthropic's limit", () => {
    const marked = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text, cache: { ttl: '5m' } }] });
    const messages = [
      marked('a'),
      { role: 'assistant', content: [{ type: 'text', text: 'b', cache: { ttl: '5m' } }] } as ChatMessage,
      marked('c'),
      { role: 'assistant', content: [{ type: 'text', text: 'd' }] } as ChatMessage,
      marked('e'),
    ];
    const body = build({ ...session, messages, cache: { tools: { ttl: '5m' }, system: { ttl: '5m' } } });
    expect(marksOf(body)).toEqual(['message 0 block 0 text', 'message 1 block 0 text', 'message 2 block 0 text', 'message 4 block 0 text']);
  });
});

describe('the plan', () => {
  const plan = (request: ChatRequest, settings: Record<string, unknown> = {}) => describePlan(planOf(anthropicAdapter, request, { strict: true, settings }));

  it('maps marks, a cache key and a retention to breakpoints, so strict translation lets them through', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'q', cache: { ttl: '5m' } }] }];
    expect(plan({ ...session, messages, cache: { key: 'k', retention: '24h' } })).toBe('mapped=cache_control,prompt_cache_key,prompt_cache_retention');
  });

  it("says nothing when the client expressed no caching (the gateway's breakpoints change no answer)", () => {
    expect(plan(session)).toBeUndefined();
  });

  it('ignores a cache key where the channel places no breakpoints of its own', () => {
    expect(planOf(anthropicAdapter, { ...session, cache: { key: 'k' } }, { strict: false, settings: { cacheBreakpoints: false } }).decisions).toEqual([
      { field: 'prompt_cache_key', treatment: 'hint', note: 'the upstream has no cache key' },
    ]);
  });
});
