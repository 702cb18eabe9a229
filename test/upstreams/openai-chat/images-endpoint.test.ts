/**
 * Which openai-chat and openai-responses channels serve OpenAI's image
 * endpoints: by `imagesEndpoint`, else only at OpenAI's own address; where
 * each operation goes; and that the content-generation protocol makes images
 * on gemini channels only (not on vertex's).
 */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import { openAiChatEndpoint } from '../../../src/upstreams/openai-chat/endpoint.js';
import { openAiChatAdapter } from '../../../src/upstreams/openai-chat/index.js';
import { openAiChatSettings } from '../../../src/upstreams/openai-chat/settings.js';
import { openAiResponsesAdapter } from '../../../src/upstreams/openai-responses/index.js';
import { geminiAdapter } from '../../../src/upstreams/gemini/index.js';
import { vertexAdapter, vertexGenerateAdapter } from '../../../src/upstreams/vertex/index.js';
import { ratioOf } from '../../../src/upstreams/protocols/generate/images.js';
import { testCall } from '../support/call.js';

const channel = (type: string, baseUrl: string, settings: Record<string, unknown> = {}) =>
  ({ id: 'c1', name: 'c', type, baseUrl, apiKeys: [], models: ['*'], modelMapping: {}, settings: type === 'openai-chat' ? openAiChatSettings.read(settings) : settings }) as unknown as Channel;

describe('images on the OpenAI types', () => {
  it("is on at OpenAI's address unless turned off, and off elsewhere unless turned on", () => {
    expect(openAiChatAdapter.images!.offered(channel('openai-chat', 'https://api.openai.com/v1'), 'generations')).toBe(true);
    expect(openAiChatAdapter.images!.offered(channel('openai-chat', 'https://api.openai.com/v1', { imagesEndpoint: false }), 'edits')).toBe(false);
    expect(openAiChatAdapter.images!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1'), 'generations')).toBe(false);
    expect(openAiChatAdapter.images!.offered(channel('openai-chat', 'http://127.0.0.1:8000/v1', { imagesEndpoint: true }), 'generations')).toBe(true);
    expect(openAiChatAdapter.images!.offered(channel('openai-chat', '', { preset: 'deepseek' }), 'generations')).toBe(false);
    expect(openAiResponsesAdapter.images!.offered(channel('openai-responses', ''), 'generations')).toBe(true);
    expect(openAiResponsesAdapter.images!.offered(channel('openai-responses', 'https://proxy.example/v1'), 'edits')).toBe(false);
  });

  it('goes under <base>/images and streams only where it passes the body through', () => {
    const call = testCall({ baseUrl: 'http://127.0.0.1:8000/v1', type: 'openai-chat', settings: { imagesEndpoint: true } });
    expect(openAiChatEndpoint.images!.url(call)).toBe('http://127.0.0.1:8000/v1/images');
    expect(openAiChatAdapter.images!.passThroughStream).toBeDefined();
    expect(geminiAdapter.images!.passThroughStream).toBeUndefined();
  });

  it('refuses a setting that is not a boolean', () => {
    expect(() => openAiChatSettings.read({ imagesEndpoint: 'yes' })).toThrow(/true or false/);
  });
});

describe('images on gemini', () => {
  it('is offered by gemini channels and not by vertex ones', () => {
    expect(geminiAdapter.images!.offered(channel('gemini', ''), 'generations')).toBe(true);
    expect(vertexAdapter.images).toBeUndefined();
    expect(vertexGenerateAdapter.images).toBeUndefined();
  });

  it('asks for the aspect ratio nearest the size, none for auto', () => {
    expect(ratioOf('1024x1024')).toBe('1:1');
    expect(ratioOf('1536x1024')).toBe('3:2');
    expect(ratioOf('1024x1792')).toBe('9:16');
    expect(ratioOf('1792x1024')).toBe('16:9');
    expect(ratioOf('auto')).toBeUndefined();
    expect(ratioOf(undefined)).toBeUndefined();
  });
});
