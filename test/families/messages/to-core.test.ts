import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../../../src/core/chat.js';
import { renderMessage } from '../../../src/families/messages/from-core.js';
import { messagesToCore } from '../../../src/families/messages/to-core.js';
import { imageTypeFromUrl } from '../../../src/families/messages/to-core-content.js';
import { parseMessagesRequest } from '../../../src/families/messages/validate.js';

const toCore = (body: Record<string, unknown>) => messagesToCore(parseMessagesRequest({ model: 'claude-test', max_tokens: 4096, ...body }));
const png = { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' };

describe('messagesToCore', () => {
  it('maps the scalar fields and leaves absent ones out', () => {
    const req = toCore({
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['END'],
      metadata: { user_id: 'user-7' },
    });
    expect(req).toEqual({
      model: 'claude-test',
      maxTokens: 4096,
      stream: true,
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      user: 'user-7',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(toCore({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({
      model: 'claude-test',
      maxTokens: 4096,
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  it('joins system blocks and takes a system string as is', () => {
    expect(toCore({ system: 'be brief', messages: [{ role: 'user', content: 'x' }] }).system).toBe('be brief');
    const blocks = [
      { type: 'text', text: 'part one' },
      { type: 'text', text: 'part two', cache_control: { type: 'ephemeral' } },
    ];
    expect(toCore({ system: blocks, messages: [{ role: 'user', content: 'x' }] }).system).toBe('part one\n\npart two');
    expect(toCore({ system: '', messages: [{ role: 'user', content: 'x' }] })).not.toHaveProperty('system');
  });

  it('merges consecutive messages of the same role', () => {
    const req = toCore({
      messages: [
        { role: 'user', content: 'one' },
        { role: 'user', content: [{ type: 'text', text: 'two' }] },
        { role: 'assistant', content: 'three' },
        { role: 'assistant', content: 'four' },
        { role: 'user', content: 'five' },
      ],
    });
    expect(req.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'three' },
          { type: 'text', text: 'four' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'five' }] },
    ]);
  });

  it('keeps an empty final assistant message as an empty turn to continue', () => {
    const req = toCore({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '' },
      ],
    });
    expect(req.messages[1]).toEqual({ role: 'assistant', content: [] });
  });

  it('converts images and documents to media parts', () => {
    const req = toCore({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: png },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.JPG?size=2' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' }, title: 'a.pdf' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain words' } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
            {
              type: 'document',
              source: {
                type: 'content',
                content: [
                  { type: 'text', text: 'one' },
                  { type: 'image', source: png },
                  { type: 'text', text: 'two' },
                ],
              },
            },
          ],
        },
      ],
    });
    expect(req.messages[0].content).toEqual([
      { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'media', mediaType: 'image/jpeg', url: 'https://example.com/cat.JPG?size=2' },
      { type: 'media', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'a.pdf' },
      { type: 'media', mediaType: 'text/plain', text: 'plain words' },
      { type: 'media', mediaType: 'application/pdf', url: 'https://example.com/b.pdf' },
      { type: 'media', mediaType: 'text/plain', text: 'one\ntwo' },
      { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
  });

  it('guesses an image type from the URL, else any image', () => {
    expect(imageTypeFromUrl('https://x/a.webp')).toBe('image/webp');
    expect(imageTypeFromUrl('https://x/a.png#frag')).toBe('image/png');
    expect(imageTypeFromUrl('https://x/render?id=1')).toBe('image/*');
  });

  it('converts tool use, tool results and thinking', () => {
    const req = toCore({
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'look it up', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [
                { type: 'text', text: 'map' },
                { type: 'image', source: png },
              ],
              is_error: true,
            },
            { type: 'tool_result', tool_use_id: 'toolu_3' },
          ],
        },
      ],
    });
    expect(req.messages[1].content).toEqual([
      { type: 'thinking', text: 'look it up', signature: 'sig-1' },
      { type: 'thinking', text: '', redactedData: 'opaque' },
      { type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(req.messages[2].content).toEqual([
      { type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] },
      {
        type: 'tool_result',
        callId: 'toolu_2',
        content: [
          { type: 'text', text: 'map' },
          { type: 'media', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
        isError: true,
      },
      { type: 'tool_result', callId: 'toolu_3', content: [] },
    ]);
  });

  it('converts custom and typed tools', () => {
    const computer = { type: 'computer_20241022', name: 'computer', display_width_px: 1024, display_height_px: 768 };
    const req = toCore({
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        { name: 'get_weather', description: 'weather', input_schema: { type: 'object' }, eager_input_streaming: true },
        { type: 'custom', name: 'strict_one', input_schema: { type: 'object' }, strict: true },
        computer,
        { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
      ],
    });
    expect(req.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'weather', parameters: { type: 'object' } },
      { type: 'function', name: 'strict_one', parameters: { type: 'object' }, strict: true },
      { type: 'builtin', dialect: 'messages', kind: 'computer_20241022', raw: computer },
      {
        type: 'builtin',
        dialect: 'messages',
        kind: 'web_search_20250305',
        capability: 'web_search',
        raw: { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
      },
    ]);
    expect(req.hints).toEqual({ eager_input_streaming: true });
  });

  it('converts tool_choice, with any as required', () => {
    const tools = [{ name: 'f', input_schema: {} }];
    const choice = (tool_choice: unknown) => toCore({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice });
    expect(choice({ type: 'auto' }).toolChoice).toEqual({ type: 'auto' });
    expect(choice({ type: 'any' }).toolChoice).toEqual({ type: 'required' });
    expect(choice({ type: 'none' }).toolChoice).toEqual({ type: 'none' });
    const named = choice({ type: 'tool', name: 'f', disable_parallel_tool_use: true });
    expect(named.toolChoice).toEqual({ type: 'tool', name: 'f', disableParallel: true });
    expect(named.parallelToolCalls).toBe(false);
    expect(choice({ type: 'auto', disable_parallel_tool_use: false })).not.toHaveProperty('parallelToolCalls');
  });

  it('converts thinking settings', () => {
    const thinking = (value: unknown) => toCore({ messages: [{ role: 'user', content: 'x' }], thinking: value }).thinking;
    expect(thinking({ type: 'enabled', budget_tokens: 2000 })).toEqual({ enabled: true, budgetTokens: 2000, includeThoughts: true });
    expect(thinking({ type: 'adaptive' })).toEqual({ enabled: true, adaptive: true, includeThoughts: true });
    expect(thinking({ type: 'disabled' })).toEqual({ enabled: false });
  });
});

describe('round trip: a rendered answer sent back as history converts to the same parts', () => {
  it('keeps text, thinking with signature, redacted thinking and tool calls', () => {
    const response: ChatResponse = {
      id: 'msg_1',
      model: 'upstream-model',
      content: [
        { type: 'thinking', text: 'plan', signature: 'sig-a' },
        { type: 'thinking', text: '', redactedData: 'sealed' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'toolu_9', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
      ],
      finishReason: 'tool_use',
      usage: { inputTokens: 10, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
    };
    const rendered = renderMessage(response, 'claude-test');
    const wireHistory = JSON.parse(JSON.stringify({ role: rendered.role, content: rendered.content }));
    const req = toCore({ messages: [{ role: 'user', content: 'weather?' }, wireHistory] });
    expect(req.messages[1]).toEqual({ role: 'assistant', content: response.content });
  });
});
