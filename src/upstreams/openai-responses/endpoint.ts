/**
 * Where and how to call the OpenAI Responses API: base URL with the `/v1`
 * prefix (OpenAI's when the channel names none), responses to
 * `<base>/responses`, compactions to `<base>/responses/compact`, counts to
 * `<base>/responses/input_tokens`, moderations to `<base>/moderations`, images
 * to `<base>/images/*` and audio to `<base>/audio/*` (on by default at OpenAI's own address); the channel's key as a Bearer credential.
 */
import { joinUrl } from '../http.js';
import type { ResponsesEndpoint, ResponsesOperation } from '../protocols/responses/index.js';
import type { UpstreamCall } from '../types.js';
import type { Channel } from '../../core/channel.js';
import { offersAudio, offersBatchApi, offersImages, offersModerations, openAiResponsesSettingsOf, type OpenAiResponsesSettings } from './settings.js';

/** Used when the channel names no base URL (the `/v1` prefix is part of it, as for every OpenAI-style type). */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

const paths: Readonly<Record<ResponsesOperation, string>> = { responses: '/responses', compact: '/responses/compact', 'input-tokens': '/responses/input_tokens' };

export function responsesUrl(call: UpstreamCall, operation: ResponsesOperation = 'responses'): string {
  return joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, paths[operation]);
}

/** A channel without a key sends no auth header, never an empty `Bearer `. */
export function responsesHeaders(call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
  return headers;
}

export const openAiResponsesEndpoint: ResponsesEndpoint<OpenAiResponsesSettings> = {
  type: 'openai-responses',
  settingsOf: openAiResponsesSettingsOf,
  url: responsesUrl,
  headers: responsesHeaders,
  moderations: {
    offered: (channel) => offersModerations(openAiResponsesSettingsOf(channel), channel.baseUrl || DEFAULT_OPENAI_BASE_URL),
    url: (call) => joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/moderations'),
  },
  images: {
    offered: (channel) => offersImages(openAiResponsesSettingsOf(channel), channel.baseUrl || DEFAULT_OPENAI_BASE_URL),
    url: (call) => joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/images'),
  },
  audio: {
    offered: (channel) => offersAudio(openAiResponsesSettingsOf(channel), channel.baseUrl || DEFAULT_OPENAI_BASE_URL),
    url: (call) => joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/audio'),
  },
};

/** The base URL of the channel's Batch API, or undefined when its server has none (`batchApi`). */
export function batchApiBaseUrl(channel: Channel): string | undefined {
  const base = channel.baseUrl || DEFAULT_OPENAI_BASE_URL;
  return offersBatchApi(openAiResponsesSettingsOf(channel), base) ? base : undefined;
}
