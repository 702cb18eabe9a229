/**
 * The `anthropic` upstream: the Anthropic Messages API (base URL = the origin,
 * e.g. https://api.anthropic.com; requests go to <base>/v1/messages).
 * Messages clients get the byte-for-byte pass-through; other clients are translated.
 */
import type { UpstreamAdapter } from '../types.js';
import { messagesCountTokens } from '../protocols/messages/count-tokens.js';
import { prepareAnthropic, type AnthropicPrepared } from '../protocols/messages/convert-request.js';
import type { AnthropicSettings } from './settings.js';
import { messagesChat } from '../protocols/messages/chat.js';
import { messagesPassThrough } from '../protocols/messages/pass-through.js';

export const anthropicAdapter: UpstreamAdapter<AnthropicSettings, AnthropicPrepared> = {
  type: 'anthropic',
  nativeDialect: 'messages',
  prepare: prepareAnthropic,
  chat: messagesChat,
  passThrough: messagesPassThrough,
  countTokens: messagesCountTokens,
};
