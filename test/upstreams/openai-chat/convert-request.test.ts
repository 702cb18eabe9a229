/** ChatRequest → chat-completions request body, and the request the adapter actually sends. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { toChatCompletionRequest } from '../../../src/upstreams/protocols/chat-completions/convert-request.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { openAiChatCapabilities } from '../../../src/upstreams/protocols/chat-completions/capabilities.js';
import { TEST_API_KEY, testCall, sendChat, planOf } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { jsonReply } from '../support/fixtures.js';

const base: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const build = (overrides: Partial<ChatRequest>, settings?: Record<string, unknown>) => toChatCompletionRequest({ ...base, ...overrides }, 'gpt-x', settings);

describe('toChatCompletionRequest', () => {
  it('maps the common fields', () => {
    expect(
      build({
        system: 'be brief',
        maxTokens: 100,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        seed: 7,
        presencePenalty: 0.1,
        frequencyPenalty: 0.3,
        user: 'u1',
        stream: true,
      }),
    ).toEqual({
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      max_completion_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.3,
      user: 'u1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('honours the channel settings for old servers', () => {
    const body = build({ maxTokens: 100, stream: true }, { maxTokensField: 'max_tokens', streamUsage: false });
    expect(body.max_tokens).toBe(100);
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('translates a tool loop: tool calls, tool messages first, images as data URLs, thinking dropped', () => {
    const body = build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'weather here?' },
            { type: 'media', mediaType: 'image/png', data: 'iVBOR' },
            { type: 'media', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'let me call', signature: 'sig' },
            { type: 'text', text: 'Checking' },
            { type: 'text', text: '…' },
            { type: 'tool_call', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_call', id: 'call_2', name: 'get_time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'thanks' },
            {
              type: 'tool_result',
              callId: 'call_1',
              content: [
                { type: 'text', text: 'sunny' },
                { type: 'text', text: '20C' },
              ],
            },
            { type: 'tool_result', callId: 'call_2', content: [], isError: true },
          ],
        },
        { role: 'assistant', content: [{ type: 'thinking', text: 'only thoughts' }] },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'weather here?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking…',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny\n20C' },
      { role: 'tool', tool_call_id: 'call_2', content: '' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('sends an assistant turn with only tool calls with null content', () => {
    const body = build({ messages: [{ role: 'assistant', content: [{ type: 'tool_call', id: 'c', name: 'f', input: { a: 1 } }] }] });
    expect(body.messages).toEqual([{ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }]);
  });

  it('converts audio, PDF and text documents', () => {
    const body = build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'media', mediaType: 'audio/wav', data: 'UklGR' },
            { type: 'media', mediaType: 'application/pdf', data: 'JVBER', filename: 'a.pdf' },
            { type: 'media', mediaType: 'text/plain', text: 'notes' },
          ],
        },
      ],
    });
    expect((body.messages as Array<{ content: unknown }>)[0].content).toEqual([
      { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
      { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBER' } },
      { type: 'text', text: 'notes' },
    ]);
  });

  it('maps tools, tool choice and parallel calls', () => {
    const tools = [{ type: 'function' as const, name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true }];
    const body = build({ tools, toolChoice: { type: 'tool', name: 'f', disableParallel: true } });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'f', description: 'does f', parameters: { type: 'object' }, strict: true } }]);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(body.parallel_tool_calls).toBe(false);
    expect(build({ tools, toolChoice: { type: 'required' } }).tool_choice).toBe('required');
    expect(build({ tools, toolChoice: { type: 'none' } }).tool_choice).toBe('none');
    expect(build({ tools, parallelToolCalls: false }).parallel_tool_calls).toBe(false);
    expect(build({ tools })).not.toHaveProperty('parallel_tool_calls');
    expect(build({ parallelToolCalls: false })).not.toHaveProperty('parallel_tool_calls');
  });

  it('sends the thought back as reasoning_content only to a channel set for it (DeepSeek thinking-mode tool loops)', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 'Look it up.' },
          { type: 'tool_call', id: 'c1', name: 'w', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'sunny' }] }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c2', name: 'w', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', callId: 'c2', content: [{ type: 'text', text: 'rain' }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Sunny, then rain.' }] },
    ];
    const assistants = (settings?: Record<string, unknown>) => (build({ messages }, settings).messages as Array<Record<string, unknown>>).filter((message) => message.role === 'assistant');
    for (const message of assistants()) expect(message).not.toHaveProperty('reasoning_content');
    const sent = assistants({ reasoningContent: true });
    expect(sent[0].reasoning_content).toBe('Look it up.');
    // A tool-call turn with no thought (the conversation began elsewhere) still carries the field DeepSeek asks for.
    expect(sent[1].reasoning_content).toBe('');
    expect(sent[2]).not.toHaveProperty('reasoning_content');
  });

  it('maps response formats and reasoning effort', () => {
    expect(build({ responseFormat: { type: 'json_object' } }).response_format).toEqual({ type: 'json_object' });
    expect(build({ responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } }).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' }, strict: true },
    });
    expect(build({ responseFormat: { type: 'json_schema', schema: {} } }).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: {} },
    });
    expect(build({ responseFormat: { type: 'text' } })).not.toHaveProperty('response_format');
    expect(build({ thinking: { enabled: true, effort: 'minimal' } }).reasoning_effort).toBe('minimal');
    expect(build({ thinking: { enabled: true, budgetTokens: 2000 } }).reasoning_effort).toBe('low');
    expect(build({ thinking: { enabled: true, budgetTokens: 10000 } }).reasoning_effort).toBe('medium');
    expect(build({ thinking: { enabled: true, budgetTokens: 50000 } }).reasoning_effort).toBe('high');
    expect(build({ thinking: { enabled: false, effort: 'high' } })).not.toHaveProperty('reasoning_effort');
  });

  it('plans what chat completions cannot carry: refused by name, or ignored as a hint', () => {
    const plan = (overrides: Partial<ChatRequest>) => planOf(openAiChatAdapter, { ...base, ...overrides }, { strict: false, settings: {} });
    expect(plan({ topK: 5 }).decisions).toEqual([{ field: 'top_k', treatment: 'hint', note: 'the openai-chat upstream has no top_k' }]);
    expect(build({ topK: 5 })).not.toHaveProperty('top_k');
    expect(plan({ features: { generate: { candidateCount: 2 } } }).refusal).toMatchObject({ param: 'candidateCount' });
    const search = { type: 'builtin' as const, dialect: 'messages' as const, kind: 'web_search_20250305', raw: {} };
    expect(plan({ tools: [search] }).decisions).toContainEqual(expect.objectContaining({ field: 'tool web_search_20250305', treatment: 'hint' }));
    expect(build({ tools: [search] })).not.toHaveProperty('tools');
    // Refused, never thrown: the body is built (and never sent).
    expect(() => build({ messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'video/mp4', data: 'x' }] }] })).not.toThrow();
    expect(plan({ messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'video/mp4', data: 'x' }] }] }).refusal).toMatchObject({
      param: 'media type video/mp4',
    });
    const toolVideo = { role: 'user' as const, content: [{ type: 'tool_result' as const, callId: 'c', content: [{ type: 'media' as const, mediaType: 'video/mp4', data: 'x' }] }] };
    expect(plan({ messages: [toolVideo] }).refusal).toMatchObject({ param: 'media type video/mp4' });
    const assistantImage = { role: 'assistant' as const, content: [{ type: 'media' as const, mediaType: 'image/png', data: 'x' }] };
    expect(plan({ messages: [...base.messages, assistantImage] }).refusal).toMatchObject({ param: 'media in assistant turns' });
    const toolImage = { role: 'user' as const, content: [{ type: 'tool_result' as const, callId: 'c', content: [{ type: 'media' as const, mediaType: 'image/png', data: 'x' }] }] };
    expect(plan({ messages: [toolImage] }).decisions).toContainEqual(expect.objectContaining({ field: 'media in tool results', treatment: 'mapped' }));
    expect(plan({ messages: [toolImage] }).refusal).toBeUndefined();
  });

  it('declares no features and no builtin tools on the translated path, and passes Chat Completions clients through', () => {
    const plan = planOf(openAiChatAdapter, { model: 'm', messages: [], stream: false, features: { generate: { logprobs: true } } }, { strict: false, settings: {} });
    expect(plan.refusal?.message).toMatch(/logprobs is not supported/);
    expect(openAiChatCapabilities.builtinTools).toBeUndefined();
    expect(openAiChatAdapter.nativeDialect).toBe('chat-completions');
    expect(openAiChatAdapter.passThrough).toBeTypeOf('function');
  });
});

describe('openai-chat request on the wire', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream(jsonReply('openai-chat', 'openai-text.json'));
  });
  afterAll(() => upstream.close());

  it('posts to <base>/chat/completions with a Bearer key, base with or without a trailing slash', async () => {
    for (const baseUrl of [`${upstream.origin}/v1`, `${upstream.origin}/v1/`]) {
      await sendChat(openAiChatAdapter, base, testCall({ baseUrl, upstreamModel: 'gpt-mapped' }));
      const sent = upstream.requests.at(-1)!;
      expect(sent.url).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.json()).toEqual({ model: 'gpt-mapped', messages: [{ role: 'user', content: 'hi' }] });
    }
  });
});
