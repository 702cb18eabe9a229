/**
 * Where and how to call the Anthropic Messages API: base URL = the origin
 * (e.g. https://api.anthropic.com), messages to `<base>/v1/messages`, counts
 * to `<base>/v1/messages/count_tokens`; the Messages dialect's headers
 * (protocols/messages/headers.ts) with `anthropic-beta` filtered by the
 * channel's `betas` lists, and the key in `x-api-key`.
 */
import type { Channel } from '../../core/channel.js';
import { joinUrl } from '../http.js';
import { readBetaLists } from '../protocols/messages/betas.js';
import { messagesHeaders, passThroughHeaders } from '../protocols/messages/headers.js';
import type { MessagesEndpoint, MessagesOperation } from '../protocols/messages/index.js';
import type { UpstreamCall } from '../types.js';
import { anthropicSettingsOf, type AnthropicSettings } from './settings.js';

const paths: Readonly<Record<MessagesOperation, string>> = { messages: '/v1/messages', 'count-tokens': '/v1/messages/count_tokens' };
const noBetas: readonly string[] = [];

export const anthropicEndpoint: MessagesEndpoint<AnthropicSettings> = {
  type: 'anthropic',
  settingsOf: anthropicSettingsOf,
  url: (call, operation) => joinUrl(call.channel.baseUrl, paths[operation]),
  headers: (call, route, betas = noBetas) => {
    const lists = readBetaLists(anthropicSettingsOf(call.channel));
    return withKey(call, route === 'translated' ? messagesHeaders(call, betas, lists) : passThroughHeaders(call, lists));
  },
};

/**
 * The headers of a call the gateway makes on its own account, with no client
 * request behind it (the Message Batches API): those of a pass-through with
 * no client headers, so the default `anthropic-version`, and the key.
 */
export function ownCallHeaders(channel: Channel, apiKey: string): Record<string, string> {
  return withKey({ apiKey }, passThroughHeaders({ clientHeaders: {} }, readBetaLists(anthropicSettingsOf(channel))));
}

/** A channel without a key sends none, never an empty `x-api-key`. */
function withKey(call: Pick<UpstreamCall, 'apiKey'>, headers: Record<string, string>): Record<string, string> {
  if (call.apiKey) headers['x-api-key'] = call.apiKey;
  return headers;
}
