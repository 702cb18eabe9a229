/**
 * Where and how to call an Azure OpenAI / Azure AI Foundry resource, for each
 * of the two protocols a channel speaks. The channel's `baseUrl` is the
 * resource URL (`https://my-resource.openai.azure.com`; a trailing `/openai`
 * or `/openai/v1` is accepted too). The `v1` routes take the deployment as
 * the body's `model`; the `dated` ones take an `api-version` query and, for
 * Chat Completions and embeddings, the deployment in the path. The
 * credential is the channel's key as an `api-key` header, or an Entra ID
 * token got with it (entra-token.ts). Streams of Chat Completions open with
 * a `prompt_filter_results` chunk (empty `id` and `object`, no choices),
 * which is not a completion chunk: the protocol drops it on every path.
 * OpenAI's image and audio requests go to the deployment's own routes of
 * the same style, as they are (the Chat Completions endpoint names them).
 */
import type { ChatCompletionChunk } from '../../dialects/chat-completions/wire.js';
import type { EndpointHeaders } from '../endpoint.js';
import type { OperationAddress } from '../plain-pass-through.js';
import type { ChatCompletionsEndpoint, ChatCompletionsOperation } from '../protocols/chat-completions/index.js';
import type { ResponsesEndpoint, ResponsesOperation } from '../protocols/responses/index.js';
import type { UpstreamCall } from '../types.js';
import { entraHeaders } from './entra-token.js';
import { azureOpenAiSettingsOf, type AzureOpenAiSettings } from './settings.js';

const chatPaths: Readonly<Record<ChatCompletionsOperation, string>> = { chat: '/chat/completions', embeddings: '/embeddings' };
const responsesPaths: Readonly<Record<ResponsesOperation, string>> = { responses: '/responses', compact: '/responses/compact', 'input-tokens': '/responses/input_tokens' };

/** Resource URL → its root without a trailing slash, `/openai` or `/openai/v1`, made once per URL. */
const roots = new Map<string, string>();

export function resourceRoot(baseUrl: string): string {
  let root = roots.get(baseUrl);
  if (root === undefined) {
    root = baseUrl.replace(/\/+$/, '').replace(/\/openai(\/v1)?$/, '');
    if (roots.size >= 1000) roots.clear();
    roots.set(baseUrl, root);
  }
  return root;
}

function dated(path: string, settings: AzureOpenAiSettings): string {
  return `${path}?api-version=${encodeURIComponent(settings.apiVersion)}`;
}

export function azureChatUrl(call: UpstreamCall, operation: ChatCompletionsOperation): string {
  const settings = azureOpenAiSettingsOf(call.channel);
  const root = resourceRoot(call.channel.baseUrl);
  if (settings.routes === 'v1') return `${root}/openai/v1${chatPaths[operation]}`;
  return dated(`${root}/openai/deployments/${encodeURIComponent(call.upstreamModel)}${chatPaths[operation]}`, settings);
}

export function azureResponsesUrl(call: UpstreamCall, operation: ResponsesOperation): string {
  const settings = azureOpenAiSettingsOf(call.channel);
  const root = resourceRoot(call.channel.baseUrl);
  if (settings.routes === 'v1') return `${root}/openai/v1${responsesPaths[operation]}`;
  return dated(`${root}/openai${responsesPaths[operation]}`, settings);
}

/**
 * OpenAI's image or audio endpoints of a deployment, on every channel (the
 * deployment's model decides what it makes): `/openai/v1/images/generations`
 * with the deployment as the body's `model`, or
 * `/openai/deployments/{deployment}/images/generations?api-version=…`.
 */
function mediaAddress(kind: 'images' | 'audio'): OperationAddress {
  const base = (call: UpstreamCall, settings: AzureOpenAiSettings) => {
    const root = resourceRoot(call.channel.baseUrl);
    return settings.routes === 'v1' ? `${root}/openai/v1/${kind}` : `${root}/openai/deployments/${encodeURIComponent(call.upstreamModel)}/${kind}`;
  };
  return {
    offered: () => true,
    url: (call) => base(call, azureOpenAiSettingsOf(call.channel)),
    at: (call, path) => {
      const settings = azureOpenAiSettingsOf(call.channel);
      return settings.routes === 'v1' ? `${base(call, settings)}${path}` : dated(`${base(call, settings)}${path}`, settings);
    },
  };
}

/** The `api-key` header, or a Bearer token from Entra ID (a record when the token is cached, a promise while it is fetched). */
export function azureHeaders(call: UpstreamCall): EndpointHeaders {
  const settings = azureOpenAiSettingsOf(call.channel);
  if (settings.auth === 'entra-id') return entraHeaders(settings, call);
  return { 'content-type': 'application/json', 'api-key': call.apiKey };
}

/** Azure's opening chunk of a stream: the prompt's filter results, with no id, no object and no choices. */
export function isPromptFilterChunk(chunk: ChatCompletionChunk): boolean {
  const filtered = chunk as ChatCompletionChunk & { prompt_filter_results?: unknown };
  return filtered.prompt_filter_results !== undefined && !chunk.id && (!chunk.choices || chunk.choices.length === 0);
}

/*
 * Each API's reasoning state is the resource's own (OpenAI's encrypted
 * reasoning opens only for the account that made it): its origin is the
 * type and the API, so neither openai-responses state nor the other API's
 * goes to it.
 */
export const azureChatEndpoint: ChatCompletionsEndpoint<AzureOpenAiSettings> = {
  type: 'azure-openai',
  serves: 'Chat Completions API',
  reasoningOrigin: 'azure-openai/chat-completions',
  settingsOf: azureOpenAiSettingsOf,
  url: azureChatUrl,
  headers: azureHeaders,
  skippedChunks: { marker: '"prompt_filter_results"', skips: isPromptFilterChunk },
  images: mediaAddress('images'),
  audio: mediaAddress('audio'),
};

export const azureResponsesEndpoint: ResponsesEndpoint<AzureOpenAiSettings> = {
  type: 'azure-openai',
  serves: 'Responses API',
  reasoningOrigin: 'azure-openai/responses',
  settingsOf: azureOpenAiSettingsOf,
  url: azureResponsesUrl,
  headers: azureHeaders,
};
