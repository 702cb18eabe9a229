/**
 * The openai-chat `preset` setting: the defaults it fills (an explicit
 * setting or base URL wins), the channel rule that a preset stands in for
 * the base URL, and the per-field decisions its declared unsupported fields
 * make in a translated request's plan.
 */
import { describe, expect, it } from 'vitest';
import { channelProblem } from '../../../src/config/entity-rules.js';
import type { ChatRequest } from '../../../src/core/chat.js';
import { openAiChatEndpoint } from '../../../src/upstreams/openai-chat/endpoint.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { CHAT_PRESET_NAMES, CHAT_PRESETS } from '../../../src/upstreams/openai-chat/presets.js';
import { openAiChatSettings } from '../../../src/upstreams/openai-chat/settings.js';
import { prepareWith, testCall } from '../support/call.js';

const ask: ChatRequest = { model: 'alias', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, maxTokens: 50 };
const tool = { type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: {} } };
const channel = (settings: Record<string, unknown>, baseUrl = '') => ({ name: 'c', type: 'openai-chat', baseUrl, apiKeys: [], models: ['*'], modelMapping: {}, settings });

describe('preset defaults', () => {
  it("fills the service's quirks, and a setting the channel gives wins", () => {
    expect(openAiChatSettings.read({ preset: 'deepseek' })).toMatchObject({ maxTokensField: 'max_tokens', reasoningContent: true, promptCacheKey: false, streamUsage: true });
    expect(openAiChatSettings.read({ preset: 'deepseek', maxTokensField: 'max_completion_tokens', reasoningContent: false })).toMatchObject({
      maxTokensField: 'max_completion_tokens',
      reasoningContent: false,
    });
    expect(openAiChatSettings.read({ preset: 'mistral', unsupportedFields: [] }).unsupportedFields).toEqual([]);
    expect(openAiChatSettings.read({})).toMatchObject({ maxTokensField: 'max_completion_tokens', reasoningContent: false, unsupportedFields: [] });
  });

  it('gives every preset an address the endpoint uses when the channel has none', () => {
    for (const name of CHAT_PRESET_NAMES) {
      const call = testCall({ baseUrl: '', type: 'openai-chat', settings: { preset: name } });
      expect(openAiChatEndpoint.url(call, 'chat')).toBe(`${CHAT_PRESETS[name].baseUrl}/chat/completions`);
    }
    expect(openAiChatEndpoint.url(testCall({ baseUrl: 'http://127.0.0.1:4000/v1', type: 'openai-chat', settings: { preset: 'groq' } }), 'embeddings')).toBe('http://127.0.0.1:4000/v1/embeddings');
  });
});

describe('channel rules', () => {
  it('takes a preset in place of a base URL, and names both when neither is given', () => {
    expect(channelProblem(channel({ preset: 'ollama' }))).toBeUndefined();
    expect(channelProblem(channel({}))).toEqual({ field: 'baseUrl', message: 'required for type openai-chat (an absolute http(s) URL) unless settings.preset is set' });
    expect(channelProblem(channel({ preset: 'nope' }))?.field).toBe('settings.preset');
    expect(channelProblem(channel({ unsupportedFields: ['logit_bias'] }, 'http://localhost:8000/v1'))?.field).toBe('settings.unsupportedFields.0');
  });
});

describe('declared unsupported fields in the plan', () => {
  const prepare = (request: Partial<ChatRequest>, settings: Record<string, unknown>, strict = false) =>
    prepareWith(openAiChatAdapter, { ...ask, ...request }, { settings, strict, upstreamModel: 'm', dialect: 'messages' });

  it('leaves out what cannot change the answer, as hints (Cerebras: penalties, parallel_tool_calls)', () => {
    const prepared = prepare({ presencePenalty: 0.5, frequencyPenalty: 0.2, seed: 3, tools: [tool], parallelToolCalls: false }, { preset: 'cerebras' });
    expect(prepared.body).not.toHaveProperty('presence_penalty');
    expect(prepared.body).not.toHaveProperty('frequency_penalty');
    expect(prepared.body).not.toHaveProperty('parallel_tool_calls');
    expect(prepared.body).toMatchObject({ seed: 3, max_completion_tokens: 50 });
    expect(prepared.decisions.refusal).toBeUndefined();
    const ignored = prepared.decisions.decisions.filter((decision) => decision.treatment === 'hint').map((decision) => decision.field);
    expect(ignored).toEqual(expect.arrayContaining(['presence_penalty', 'frequency_penalty', 'parallel_tool_calls']));
  });

  it('refuses before routing what leaving out would change (DeepSeek: a json_schema format), and keeps json_object', () => {
    const schema = prepare({ responseFormat: { type: 'json_schema', schema: { type: 'object' } } }, { preset: 'deepseek' });
    expect(schema.decisions.refusal?.message).toContain('response_format.json_schema');
    const object = prepare({ responseFormat: { type: 'json_object' } }, { preset: 'deepseek' });
    expect(object.decisions.refusal).toBeUndefined();
    expect(object.body).toMatchObject({ response_format: { type: 'json_object' }, max_tokens: 50 });
  });

  it('refuses a forced tool where the server takes no tool_choice, and leaves `auto` out as a hint', () => {
    const settings = { unsupportedFields: ['tool_choice', 'stop'] };
    expect(prepare({ tools: [tool], toolChoice: { type: 'required' } }, settings).decisions.refusal?.message).toContain('tool_choice');
    expect(prepare({ stopSequences: ['END'] }, settings).decisions.refusal?.message).toContain('stop');
    const auto = prepare({ tools: [tool], toolChoice: { type: 'auto' } }, settings);
    expect(auto.decisions.refusal).toBeUndefined();
    expect(auto.body).not.toHaveProperty('tool_choice');
  });

  it('makes a hint a refusal for a strict channel (Mistral: seed and user)', () => {
    const loose = prepare({ seed: 1, user: 'u1' }, { preset: 'mistral' });
    expect(loose.body).not.toHaveProperty('seed');
    expect(loose.body).not.toHaveProperty('user');
    expect(loose.decisions.refusal).toBeUndefined();
    expect(prepare({ seed: 1 }, { preset: 'mistral' }, true).decisions.refusal).toBeDefined();
  });
});
