/**
 * `reasoning_details` in the Chat Completions family: rendered on answers and
 * stream deltas from the core parts (tokens here stand for sealed ones), and
 * read back from a replayed assistant message into thinking parts placed
 * where the upstream needs them.
 */
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatResponse } from '../../../src/core/chat.js';
import { renderCompletion } from '../../../src/families/chat-completions/from-core.js';
import { ChatCompletionsStreamEncoder } from '../../../src/families/chat-completions/stream-encoder.js';
import { messagesToCore } from '../../../src/families/chat-completions/to-core-messages.js';
import type { MessageParam } from '../../../src/dialects/chat-completions/schema-messages.js';

const answer = (content: ChatResponse['content']): ChatResponse => ({
  id: 'r1',
  model: 'm',
  content,
  finishReason: 'tool_use',
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
});
const render = (content: ChatResponse['content']) => (renderCompletion(answer(content), { clientModel: 'm', legacyFunctions: false }) as any).choices[0].message;
const call = (id: string) => ({ type: 'tool_call' as const, id, name: 'w', input: {} });

describe('answers', () => {
  it('give each thought its entry: text with its signature, state without text as encrypted naming its call', () => {
    const message = render([
      { type: 'thinking', text: 'Plan.', signature: 'swy1-thought' },
      { type: 'thinking', text: '', redactedData: 'swy1-redacted' },
      { type: 'text', text: 'Checking.' },
      { type: 'thinking', text: '', signature: 'swy1-call' },
      call('c1'),
      call('c2'),
    ]);
    expect(message.reasoning_content).toBe('Plan.');
    expect(message.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Plan.', signature: 'swy1-thought', format: 'unknown', index: 0 },
      { type: 'reasoning.encrypted', data: 'swy1-redacted', format: 'unknown', index: 1 },
      { type: 'reasoning.encrypted', data: 'swy1-call', id: 'c1', format: 'unknown', index: 2 },
    ]);
  });

  it('a signature that came after the call names that call; no thoughts, no field', () => {
    expect(render([call('c1'), { type: 'thinking', text: '', signature: 'swy1-late' }]).reasoning_details).toEqual([
      { type: 'reasoning.encrypted', data: 'swy1-late', id: 'c1', format: 'unknown', index: 0 },
    ]);
    expect(render([{ type: 'text', text: 'hi' }])).not.toHaveProperty('reasoning_details');
    // A signature before text after a call is the text's: it names no call.
    expect(
      render([{ type: 'thinking', text: '', signature: 'swy1-call' }, call('c1'), { type: 'thinking', text: '', signature: 'swy1-text' }, { type: 'text', text: 'Done.' }]).reasoning_details,
    ).toEqual([
      { type: 'reasoning.encrypted', data: 'swy1-call', id: 'c1', format: 'unknown', index: 0 },
      { type: 'reasoning.encrypted', data: 'swy1-text', format: 'unknown', index: 1 },
    ]);
  });
});

describe('streams', () => {
  function deltas(events: ChatEvent[]): any[] {
    const encoder = new ChatCompletionsStreamEncoder({ clientModel: 'm', includeUsage: false, legacyFunctions: false });
    const text = events.map((event) => encoder.encode(event)).join('');
    return text
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: {'))
      .map((frame) => JSON.parse(frame.slice(6)).choices[0].delta);
  }
  const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 };

  it('stream the thought in pieces of one entry, its signature last, and a call signature with the call it names', () => {
    const out = deltas([
      { type: 'message_start', id: 'r1' },
      { type: 'block_start', index: 0, block: { type: 'thinking' } },
      { type: 'thinking_delta', index: 0, text: 'Pl' },
      { type: 'thinking_delta', index: 0, text: 'an.' },
      { type: 'signature_delta', index: 0, signature: 'swy1-thought' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 1, signature: 'swy1-call' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'tool_call', id: 'c1', name: 'w' } },
      { type: 'block_stop', index: 2 },
      { type: 'finish', reason: 'tool_use', usage },
    ]);
    const details = out.flatMap((delta) => delta.reasoning_details ?? []);
    expect(details).toEqual([
      { type: 'reasoning.text', text: 'Pl', format: 'unknown', index: 0 },
      { type: 'reasoning.text', text: 'an.', format: 'unknown', index: 0 },
      { type: 'reasoning.text', text: '', signature: 'swy1-thought', format: 'unknown', index: 0 },
      { type: 'reasoning.encrypted', data: 'swy1-call', id: 'c1', format: 'unknown', index: 1 },
    ]);
    expect(out.map((delta) => delta.reasoning_content ?? '').join('')).toBe('Plan.');
    // The call's entry comes before the call itself.
    expect(out.findIndex((delta) => delta.reasoning_details?.[0]?.id === 'c1')).toBeLessThan(out.findIndex((delta) => delta.tool_calls));
  });

  it('a signature after the last call names it, before the finish', () => {
    const out = deltas([
      { type: 'block_start', index: 0, block: { type: 'tool_call', id: 'c1', name: 'w' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'thinking' } },
      { type: 'signature_delta', index: 1, signature: 'swy1-late' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', reason: 'tool_use', usage },
    ]);
    expect(out.flatMap((delta) => delta.reasoning_details ?? [])).toEqual([{ type: 'reasoning.encrypted', data: 'swy1-late', id: 'c1', format: 'unknown', index: 0 }]);
  });
});

describe('replayed assistant messages', () => {
  const assistant = (fields: Record<string, unknown>): MessageParam[] => [
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'w', arguments: '{}' } },
        { id: 'c2', type: 'function', function: { name: 'w', arguments: '{}' } },
      ],
      ...fields,
    } as MessageParam,
  ];
  const turn = (fields: Record<string, unknown>) => messagesToCore(assistant(fields)).messages[1].content;

  it('put thoughts first and a call signature right before the call it names, pieces of one entry merged', () => {
    expect(
      turn({
        reasoning_content: 'ignored when details are there',
        reasoning_details: [
          { type: 'reasoning.text', text: 'Pl', index: 0 },
          { type: 'reasoning.text', text: 'an.', index: 0 },
          { type: 'reasoning.text', text: '', signature: 'swy1-thought', index: 0 },
          { type: 'reasoning.encrypted', data: 'swy1-call', id: 'c2', index: 1 },
          { type: 'reasoning.summary', summary: 'A summary.', index: 2 },
          { type: 'reasoning.future', whatever: true },
        ],
      }),
    ).toEqual([
      { type: 'thinking', text: 'Plan.', signature: 'swy1-thought' },
      { type: 'thinking', text: 'A summary.' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_call', id: 'c1', name: 'w', input: {} },
      { type: 'thinking', text: '', signature: 'swy1-call' },
      { type: 'tool_call', id: 'c2', name: 'w', input: {} },
    ]);
  });

  it('without usable details, reasoning_content is the unsigned thought', () => {
    expect(turn({ reasoning_content: 'Plan.', reasoning_details: [{ type: 'reasoning.future' }] })[0]).toEqual({ type: 'thinking', text: 'Plan.' });
    expect(turn({ reasoning_details: [] })[0]).toEqual({ type: 'text', text: 'Checking.' });
  });
});
