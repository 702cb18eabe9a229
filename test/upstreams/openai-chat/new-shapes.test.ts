/**
 * openai-chat translating the new shapes: system turns in place, adaptive
 * thinking as reasoning effort, media in tool results as a user message after
 * the tool messages, and usage whose output always includes reasoning.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { toChatCompletionRequest } from '../../../src/upstreams/protocols/chat-completions/convert-request.js';
import { fromChatCompletion } from '../../../src/upstreams/protocols/chat-completions/convert-response.js';
import { chatSseToEvents } from '../../../src/upstreams/protocols/chat-completions/convert-stream.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { usageFromChatCompletion } from '../../../src/dialects/chat-completions/usage.js';
import { collect, foldEvents } from '../support/fold-events.js';
import { planOf } from '../support/call.js';

const base: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const build = (overrides: Partial<ChatRequest>, settings?: Record<string, unknown>) => toChatCompletionRequest({ ...base, ...overrides }, 'gpt-x', settings);
const plan = (overrides: Partial<ChatRequest>) => planOf(openAiChatAdapter, { ...base, ...overrides }, { strict: false, settings: {} });

describe('openai-chat: system turns and adaptive thinking', () => {
  const conversation: ChatRequest['messages'] = [
    { role: 'user', content: [{ type: 'text', text: 'one' }] },
    { role: 'system', content: [{ type: 'text', text: 'be terse' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
    { role: 'user', content: [{ type: 'text', text: 'three' }] },
  ];

  it('keeps system turns at their place, as system messages (or developer ones by channel setting)', () => {
    expect(build({ system: 'lead', messages: conversation }).messages).toEqual([
      { role: 'system', content: 'lead' },
      { role: 'user', content: 'one' },
      { role: 'system', content: 'be terse' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'three' },
    ]);
    const developer = build({ system: 'lead', messages: conversation }, { systemRole: 'developer' }).messages as Array<{ role: string }>;
    expect(developer.map((message) => message.role)).toEqual(['developer', 'user', 'developer', 'assistant', 'user']);
    expect(plan({ messages: conversation }).decisions).toEqual([{ field: 'system messages', treatment: 'native' }]);
  });

  it('maps adaptive thinking to reasoning_effort, leaving the default effort when none is given', () => {
    expect(build({ thinking: { enabled: true, adaptive: true, effort: 'high' } }).reasoning_effort).toBe('high');
    expect(build({ thinking: { enabled: true, adaptive: true } })).not.toHaveProperty('reasoning_effort');
    expect(plan({ thinking: { enabled: true, adaptive: true, effort: 'low' } }).decisions).toEqual([{ field: 'thinking.adaptive', treatment: 'mapped', note: 'effort low' }]);
  });
});

describe('openai-chat: media in tool results', () => {
  const png = { type: 'media' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' };
  const request: Partial<ChatRequest> = {
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'look at both screenshots' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_call', id: 'call_a', name: 'Read', input: { file_path: 'a.png' } },
          { type: 'tool_call', id: 'call_b', name: 'Read', input: { file_path: 'notes.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', callId: 'call_a', content: [{ type: 'text', text: 'a.png read' }, png] },
          { type: 'tool_result', callId: 'call_b', content: [{ type: 'media', mediaType: 'text/plain', data: Buffer.from('plain notes').toString('base64') }] },
          { type: 'text', text: 'what differs?' },
        ],
      },
    ],
  };

  it('sends the text in the tool message and the images in a user message right after the tool messages', () => {
    const messages = build(request).messages as Array<Record<string, unknown>>;
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'a.png read\n[one attachment (image/png) follows in the next user message]' },
      { role: 'tool', tool_call_id: 'call_b', content: 'plain notes' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attachments returned by tool call call_a:' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'text', text: 'what differs?' },
        ],
      },
    ]);
  });

  it('plans it as mapped, and still refuses media chat completions cannot carry', () => {
    expect(plan(request).decisions).toEqual([{ field: 'media in tool results', treatment: 'mapped', note: 'tool messages carry the text; the media follow in a user message after them' }]);
    const video = { type: 'tool_result' as const, callId: 'call_a', content: [{ type: 'media' as const, mediaType: 'video/mp4', data: 'AAAA' }] };
    expect(plan({ messages: [{ role: 'user', content: [video] }] }).refusal?.message).toMatch(/media type video\/mp4 is not supported/);
  });
});

describe('openai-chat: usage, whichever way a server counts reasoning', () => {
  it('keeps output as reported when completion_tokens include reasoning (OpenAI style)', () => {
    const usage = usageFromChatCompletion({
      prompt_tokens: 100,
      completion_tokens: 300,
      total_tokens: 400,
      completion_tokens_details: { reasoning_tokens: 200 },
      prompt_tokens_details: { cached_tokens: 40 },
    });
    expect(usage).toEqual({ inputTokens: 60, cacheReadTokens: 40, cacheWriteTokens: 0, outputTokens: 300, reasoningTokens: 200 });
  });

  it('adds reasoning to output when the server reports it apart (xAI style), by the total or by size', () => {
    const byTotal = usageFromChatCompletion({ prompt_tokens: 100, completion_tokens: 30, total_tokens: 330, completion_tokens_details: { reasoning_tokens: 200 } });
    expect(byTotal).toMatchObject({ inputTokens: 100, outputTokens: 230, reasoningTokens: 200 });
    const bySize = usageFromChatCompletion({ prompt_tokens: 100, completion_tokens: 30, completion_tokens_details: { reasoning_tokens: 200 } });
    expect(bySize).toMatchObject({ outputTokens: 230, reasoningTokens: 200 });
    const small = usageFromChatCompletion({ prompt_tokens: 10, completion_tokens: 50, total_tokens: 70, completion_tokens_details: { reasoning_tokens: 10 } });
    expect(small).toMatchObject({ outputTokens: 60, reasoningTokens: 10 });
    const none = usageFromChatCompletion({ prompt_tokens: 10, completion_tokens: 50, total_tokens: 60, completion_tokens_details: { reasoning_tokens: 0 } });
    expect(none).toMatchObject({ outputTokens: 50, reasoningTokens: 0 });
  });

  it('gives plain and streamed answers the same output count', async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 57, completion_tokens_details: { reasoning_tokens: 40 } };
    const plain = fromChatCompletion({ id: 'x', model: 'grok', choices: [{ message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }], usage }, 'grok');
    expect(plain.usage).toMatchObject({ outputTokens: 45, reasoningTokens: 40 });
    const frames = [
      { id: 'x', model: 'grok', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' } }] },
      { id: 'x', model: 'grok', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { id: 'x', model: 'grok', choices: [], usage },
    ];
    const body = (async function* () {
      for (const frame of frames) yield new TextEncoder().encode(`data: ${JSON.stringify(frame)}\n\n`);
      yield new TextEncoder().encode('data: [DONE]\n\n');
    })();
    const folded = foldEvents(await collect(chatSseToEvents(body)));
    expect(folded.usage).toEqual(plain.usage);
  });
});
