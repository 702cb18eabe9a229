/**
 * Which openai-chat and openai-responses channels serve rerank and
 * moderations: rerank only where `rerankEndpoint` names a path (the vllm and
 * together presets do), moderations by `moderationsEndpoint`, else only at
 * OpenAI's own address; and where each goes.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import { openAiChatEndpoint } from '../../../src/upstreams/openai-chat/endpoint.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { openAiChatSettings } from '../../../src/upstreams/openai-chat/settings.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { testCall } from '../support/call.js';

const channel = (type: string, baseUrl: string, settings: Record<string, unknown> = {}) =>
  ({ id: 'c1', name: 'c', type, baseUrl, apiKeys: [], models: ['*'], modelMapping: {}, settings: type === 'openai-chat' ? openAiChatSettings.read(settings) : settings }) as unknown as Channel;

describe('rerank on openai-chat', () => {
  it('is off unless the channel names a path, which the vllm and together presets do', () => {
    expect(openAiChatAdapter.rerank!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1'))).toBe(false);
    expect(openAiChatAdapter.rerank!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1', { rerankEndpoint: '/rerank' }))).toBe(true);
    expect(openAiChatAdapter.rerank!.offered(channel('openai-chat', '', { preset: 'vllm' }))).toBe(true);
    expect(openAiChatAdapter.rerank!.offered(channel('openai-chat', '', { preset: 'together' }))).toBe(true);
    expect(openAiChatAdapter.rerank!.offered(channel('openai-chat', '', { preset: 'groq' }))).toBe(false);
    expect(openAiChatSettings.read({ preset: 'vllm', rerankEndpoint: '/v2/rerank' }).rerankEndpoint).toBe('/v2/rerank');
  });

  it('goes to the path under the base URL', () => {
    const call = testCall({ baseUrl: 'http://127.0.0.1:8000/v1', type: 'openai-chat', settings: { rerankEndpoint: '/rerank' } });
    expect(openAiChatEndpoint.rerank!.url(call)).toBe('http://127.0.0.1:8000/v1/rerank');
  });

  it('refuses a rerank path that is not one', () => {
    expect(() => openAiChatSettings.read({ rerankEndpoint: 'rerank' })).toThrow(/path/);
  });
});

describe('moderations on the OpenAI types', () => {
  it("is on at OpenAI's address unless turned off, and off elsewhere unless turned on", () => {
    expect(openAiChatAdapter.moderations!.offered(channel('openai-chat', 'https://api.openai.com/v1'))).toBe(true);
    expect(openAiChatAdapter.moderations!.offered(channel('openai-chat', 'https://api.openai.com/v1', { moderationsEndpoint: false }))).toBe(false);
    expect(openAiChatAdapter.moderations!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1'))).toBe(false);
    expect(openAiChatAdapter.moderations!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1', { moderationsEndpoint: true }))).toBe(true);
    expect(openAiChatAdapter.moderations!.offered(channel('openai-chat', '', { preset: 'deepseek' }))).toBe(false);
    // openai-responses defaults to OpenAI's address.
    expect(openAiResponsesAdapter.moderations!.offered(channel('openai-responses', ''))).toBe(true);
    expect(openAiResponsesAdapter.moderations!.offered(channel('openai-responses', 'https://proxy.example/v1'))).toBe(false);
  });
});
