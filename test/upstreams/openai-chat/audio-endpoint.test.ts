/**
 * Which openai-chat and openai-responses channels serve OpenAI's audio
 * endpoints: by `audioEndpoint`, else only at OpenAI's own address; and
 * where they go.
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import { openAiChatEndpoint } from '../../../src/upstreams/openai-chat/endpoint.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { openAiChatSettings } from '../../../src/upstreams/openai-chat/settings.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import { testCall } from '../support/call.js';

const channel = (type: string, baseUrl: string, settings: Record<string, unknown> = {}) =>
  ({ id: 'c1', name: 'c', type, baseUrl, apiKeys: [], models: ['*'], modelMapping: {}, settings: type === 'openai-chat' ? openAiChatSettings.read(settings) : settings }) as unknown as Channel;

describe('audio on the OpenAI types', () => {
  it("is on at OpenAI's address unless turned off, and off elsewhere unless turned on", () => {
    expect(openAiChatAdapter.audio!.offered(channel('openai-chat', 'https://api.openai.com/v1'), 'speech')).toBe(true);
    expect(openAiChatAdapter.audio!.offered(channel('openai-chat', 'https://api.openai.com/v1', { audioEndpoint: false }), 'transcriptions')).toBe(false);
    expect(openAiChatAdapter.audio!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1'), 'speech')).toBe(false);
    expect(openAiChatAdapter.audio!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1', { audioEndpoint: true }), 'translations')).toBe(true);
    expect(openAiChatAdapter.audio!.offered(channel('openai-chat', '', { preset: 'deepseek' }), 'speech')).toBe(false);
    expect(openAiResponsesAdapter.audio!.offered(channel('openai-responses', ''), 'speech')).toBe(true);
    expect(openAiResponsesAdapter.audio!.offered(channel('openai-responses', 'https://proxy.example/v1'), 'speech')).toBe(false);
    // Gemini translates audio for its models (protocols/generate/audio.ts), on every channel.
    expect(geminiAdapter.audio!.offered(channel('gemini', ''), 'speech')).toBe(true);
  });

  it('goes under <base>/audio', () => {
    const call = testCall({ baseUrl: 'http://127.0.0.1:8000/v1', type: 'openai-chat', settings: { audioEndpoint: true } });
    expect(openAiChatEndpoint.audio!.url(call)).toBe('http://127.0.0.1:8000/v1/audio');
  });

  it('refuses a setting that is not a boolean', () => {
    expect(() => openAiChatSettings.read({ audioEndpoint: 'yes' })).toThrow(/true or false/);
  });
});
