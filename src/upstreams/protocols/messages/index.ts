/**
 * The Messages protocol: speaking the Messages dialect to an upstream, at the
 * endpoint a provider supplies (anthropic today). Messages clients get the
 * byte-for-byte pass-through; other clients are translated.
 */
import { servingOf } from '../../endpoint.js';
import type { UpstreamAdapter } from '../../types.js';
import { messagesChat } from './chat.js';
import { MESSAGES_REASONING_ORIGIN, prepareMessages, type MessagesPrepared } from './convert-request.js';
import { messagesCountTokens } from './count-tokens.js';
import type { MessagesEndpoint } from './endpoint.js';
import { messagesPassThrough } from './pass-through.js';
import type { MessagesSettings } from './settings.js';

export type { MessagesEndpoint, MessagesOperation, MessagesRoute } from './endpoint.js';

/** The adapter of a provider of the Messages dialect, built once around its endpoint. */
export function messagesProtocol<S extends MessagesSettings>(endpoint: MessagesEndpoint<S>): UpstreamAdapter<S, MessagesPrepared> {
  const serving = servingOf(endpoint, MESSAGES_REASONING_ORIGIN);
  return {
    type: endpoint.type,
    nativeDialect: 'messages',
    prepare: (request, options) => prepareMessages(request, options, serving),
    reasoningOrigin: () => serving.reasoningOrigin,
    chat: messagesChat(endpoint),
    passThrough: messagesPassThrough(endpoint),
    countTokens: messagesCountTokens(endpoint),
  };
}
