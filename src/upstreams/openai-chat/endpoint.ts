/**
 * Where and how to call an OpenAI-compatible chat-completions server (OpenAI,
 * DeepSeek, Groq, vLLM, …): base URL with the `/v1` prefix, completions to
 * `<base>/chat/completions`, embeddings to `<base>/embeddings`, legacy
 * Completions to `<base>/completions` where the channel declares its server
 * offers them (`completionsEndpoint`), rerank to the path `rerankEndpoint`
 * names, moderations to `<base>/moderations` and images to `<base>/images/*`
 * and audio to `<base>/audio/*` where declared (on by default at OpenAI's own address); JSON, and the
 * channel's key as a Bearer credential when it has one. A channel with no
 * base URL has a `preset` (the channel rules ask for one or the other),
 * whose address is the base.
 */
import { joinUrl } from '../http.js';
import type { ChatCompletionsEndpoint, ChatCompletionsOperation } from '../protocols/chat-completions/index.js';
import type { UpstreamCall } from '../types.js';
import { CHAT_PRESETS } from './presets.js';
import type { Channel } from '../../core/channel.js';
import { offersAudio, offersBatchApi, offersImages, offersModerations, openAiChatSettingsOf, type OpenAiChatSettings } from './settings.js';

const paths: Readonly<Record<ChatCompletionsOperation, string>> = { chat: '/chat/completions', embeddings: '/embeddings' };

/** A keyless channel (a local server) gets no auth header, never an empty `Bearer `. */
export function chatCompletionsHeaders(call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  return headers;
}

export const openAiChatEndpoint: ChatCompletionsEndpoint<OpenAiChatSettings> = {
  type: 'openai-chat',
  settingsOf: openAiChatSettingsOf,
  url: (call, operation) => joinUrl(baseOf(call), paths[operation]),
  headers: chatCompletionsHeaders,
  completions: {
    offered: (channel) => openAiChatSettingsOf(channel).completionsEndpoint,
    url: (call) => joinUrl(baseOf(call), '/completions'),
  },
  rerank: {
    offered: (channel) => Boolean(openAiChatSettingsOf(channel).rerankEndpoint),
    url: (call) => joinUrl(baseOf(call), String(openAiChatSettingsOf(call.channel).rerankEndpoint)),
  },
  moderations: {
    offered: (channel) => offersModerations(openAiChatSettingsOf(channel), channel.baseUrl || presetBaseUrl(openAiChatSettingsOf(channel))),
    url: (call) => joinUrl(baseOf(call), '/moderations'),
  },
  images: {
    offered: (channel) => offersImages(openAiChatSettingsOf(channel), channel.baseUrl || presetBaseUrl(openAiChatSettingsOf(channel))),
    url: (call) => joinUrl(baseOf(call), '/images'),
  },
  audio: {
    offered: (channel) => offersAudio(openAiChatSettingsOf(channel), channel.baseUrl || presetBaseUrl(openAiChatSettingsOf(channel))),
    url: (call) => joinUrl(baseOf(call), '/audio'),
  },
};

function baseOf(call: UpstreamCall): string {
  return call.channel.baseUrl || presetBaseUrl(openAiChatSettingsOf(call.channel));
}

function presetBaseUrl(settings: OpenAiChatSettings): string {
  return settings.preset === undefined ? '' : CHAT_PRESETS[settings.preset].baseUrl;
}

/** The base URL of the channel's Batch API, or undefined when its server has none (`batchApi`). */
export function batchApiBaseUrl(channel: Channel): string | undefined {
  const settings = openAiChatSettingsOf(channel);
  const base = channel.baseUrl || presetBaseUrl(settings);
  return base && offersBatchApi(settings, base) ? base : undefined;
}
