/** ChatRequest → Messages request body, and the request the translation path actually sends. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/chat.js';
import { toMessagesRequest } from '../../../src/upstreams/protocols/messages/convert-request.js';
import { anthropicAdapter } from '../../../src/upstreams/anthropic/index.js';
import { anthropicCapabilities } from '../../../src/upstreams/protocols/messages/capabilities.js';
import { TEST_API_KEY, testCall, sendChat, planOf } from '../support/call.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { jsonReply } from '../support/fixtures.js';

const base: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
// Without the gateway's own cache breakpoints (cache-breakpoints.test.ts covers them), bodies stay as the client's.
const build = (overrides: Partial<ChatRequest>, settings?: Record<string, unknown>) => toMessagesRequest({ ...base, ...overrides }, 'claude-x', { cacheBreakpoints: false, ...settings });

describe('toMessagesRequest', () => {
  it('maps the common fields', () => {
    const { body, betas } = build({
      system: 'be brief',
      maxTokens: 300,
      temperature: 0.5,
      topP: 0.9,
      topK: 40,
      stopSequences: ['END'],
      user: 'user-1',
      stream: true,
    });
    expect(body).toEqual({
      model: 'claude-x',
      max_tokens: 300,
      system: 'be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      stop_sequences: ['END'],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'user-1' },
      stream: true,
    });
    expect(betas).toEqual([]);
  });

  it('defaults max_tokens (setting, else 4096) and keeps it above the thinking budget', () => {
    expect(build({}).body.max_tokens).toBe(4096);
    expect(build({}, { defaultMaxTokens: 1000 }).body.max_tokens).toBe(1000);
    const thinking = build({ thinking: { enabled: true, budgetTokens: 8000 } }).body;
    expect(thinking.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect(thinking.max_tokens).toBe(8000 + 4096);
    expect(build({ thinking: { enabled: true, effort: 'low' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(build({ maxTokens: 2000, thinking: { enabled: true, budgetTokens: 5000 } }).body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 1999,
    });
    expect(build({ thinking: { enabled: false } }).body.thinking).toBeUndefined();
  });

  it("converts every content kind, puts tool results first and drops thinking that is unsigned or another provider's", () => {
    const { body } = build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'media', mediaType: 'image/png', data: 'iVBORw0' },
            { type: 'media', mediaType: 'image/jpeg', url: 'https://example.com/a.jpg' },
            { type: 'media', mediaType: 'application/pdf', data: 'JVBERi0', filename: 'a.pdf' },
            { type: 'media', mediaType: 'text/plain', text: 'notes', title: 'Notes' },
            { type: 'text', text: '' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'hmm', signature: 'sig', origin: 'anthropic' },
            { type: 'thinking', text: 'from elsewhere' },
            { type: 'thinking', text: 'signed elsewhere', signature: 'c2ln', origin: 'gemini' },
            { type: 'thinking', text: '', redactedData: 'enc', origin: 'anthropic' },
            { type: 'thinking', text: '', redactedData: 'vendor-raw' },
            { type: 'text', text: 'calling' },
            { type: 'tool_call', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here you go' },
            {
              type: 'tool_result',
              callId: 'toolu_1',
              content: [
                { type: 'text', text: 'sunny' },
                { type: 'media', mediaType: 'image/png', data: 'AAA' },
              ],
              isError: true,
            },
          ],
        },
        { role: 'assistant', content: [{ type: 'thinking', text: 'unsigned only' }] },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0' }, title: 'a.pdf' },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'Notes' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'enc' },
          { type: 'text', text: 'calling' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'text', text: 'sunny' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
            ],
            is_error: true,
          },
          { type: 'text', text: 'here you go' },
        ],
      },
    ]);
  });

  it('maps tools and tool choice, forwarding Messages builtin tools raw', () => {
    const computer = { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 };
    const { body } = build({
      tools: [
        { type: 'function', name: 'get_weather', description: 'weather', parameters: { type: 'object' }, strict: true },
        { type: 'builtin', dialect: 'messages', kind: 'computer_20250124', raw: computer },
      ],
      toolChoice: { type: 'required', disableParallel: true },
    });
    expect(body.tools).toEqual([{ name: 'get_weather', description: 'weather', input_schema: { type: 'object' }, strict: true }, computer]);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    const tools = [{ type: 'function' as const, name: 't', parameters: {} }];
    expect(build({ tools, toolChoice: { type: 'tool', name: 't' } }).body.tool_choice).toEqual({ type: 'tool', name: 't' });
    expect(build({ tools, toolChoice: { type: 'none' } }).body.tool_choice).toEqual({ type: 'none' });
    expect(build({ tools, parallelToolCalls: false }).body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(build({ tools }).body.tool_choice).toBeUndefined();
  });

  it('uses native JSON output for a json_schema response format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const ga = build({ responseFormat: { type: 'json_schema', name: 'x', schema } });
    expect(ga.body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    const beta = build({ responseFormat: { type: 'json_schema', schema } }, { outputFormatField: 'output_format' });
    expect(beta.body.output_format).toEqual({ type: 'json_schema', schema });
    expect(beta.betas).toEqual(['structured-outputs-2025-11-13']);
    expect(build({ responseFormat: { type: 'text' } }).body.output_config).toBeUndefined();
  });

  it('plans what Anthropic cannot honour: refused by name, or ignored as a hint', () => {
    const plan = (overrides: Partial<ChatRequest>, strict = false) => planOf(anthropicAdapter, { ...base, ...overrides }, { strict, settings: {} });
    expect(plan({ responseFormat: { type: 'json_object' } }).refusal?.message).toMatch(/json_object/);
    expect(plan({ features: { generate: { logprobs: true } } }).refusal?.param).toBe('logprobs');
    expect(plan({ messages: [{ role: 'user', content: [{ type: 'media', mediaType: 'audio/wav', data: 'x' }] }] }).refusal?.message).toMatch(/audio\/wav/);
    // Sampling knobs Anthropic lacks cannot change what was asked: ignored, and not sent.
    expect(plan({ seed: 1, presencePenalty: 1 }).refusal).toBeUndefined();
    expect(plan({ seed: 1 }).decisions).toContainEqual(expect.objectContaining({ field: 'seed', treatment: 'hint' }));
    expect(plan({ seed: 1 }, true).refusal).toMatchObject({ kind: 'unsupported_feature', param: 'seed' });
    expect(build({ seed: 1, frequencyPenalty: 1 }).body).not.toHaveProperty('seed');
    // A provider-run tool of another dialect with no equivalent is left out, unless tool_choice forces it.
    const search = { type: 'builtin' as const, dialect: 'responses' as const, kind: 'file_search', raw: { type: 'file_search' } };
    expect(plan({ tools: [search] }).decisions).toContainEqual(expect.objectContaining({ field: 'tool file_search', treatment: 'hint' }));
    expect(build({ tools: [search] }).body).not.toHaveProperty('tools');
    expect(plan({ tools: [search], toolChoice: { type: 'tool', name: 'file_search' } }).refusal?.message).toMatch(/file_search/);
  });
});

describe('anthropic adapter declarations', () => {
  it('accepts dated Anthropic typed tools and nothing else', () => {
    const tools = anthropicCapabilities.builtinTools!;
    for (const kind of ['web_search_20250305', 'computer_20250124', 'bash_20250124', 'text_editor_20250728', 'code_execution_20260120', 'computer_20991231']) expect(tools.has(kind)).toBe(true);
    for (const kind of ['web_search_preview', 'codeExecution', 'computer', 'get_weather']) expect(tools.has(kind)).toBe(false);
    const plan = planOf(anthropicAdapter, { model: 'm', messages: [], stream: false, features: { generate: { logprobs: true } } }, { strict: false, settings: {} });
    expect(plan.refusal?.message).toMatch(/logprobs is not supported/);
    expect(anthropicAdapter.nativeDialect).toBe('messages');
  });
});

describe('anthropic translation request on the wire', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream(jsonReply('anthropic-messages', 'anthropic-text.json'));
  });
  afterAll(() => upstream.close());

  it('posts to <base>/v1/messages with the channel key, version and needed betas', async () => {
    const schema = { type: 'object' };
    await sendChat(
      anthropicAdapter,
      { ...base, responseFormat: { type: 'json_schema', schema } },
      testCall({
        baseUrl: upstream.origin,
        settings: { outputFormatField: 'output_format' },
        clientHeaders: { 'anthropic-beta': 'client-beta' },
      }),
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(TEST_API_KEY);
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['anthropic-beta']).toBe('client-beta,structured-outputs-2025-11-13');
    expect(sent.json()).toMatchObject({ model: 'upstream-model', output_format: { type: 'json_schema', schema } });
  });
});
