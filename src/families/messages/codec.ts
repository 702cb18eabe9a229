/** How the shared chat pipeline speaks the Messages dialect. */
import type { ChatCodec } from '../../pipeline/types.js';
import { renderMessagesError } from '../../dialects/messages/errors.js';
import { renderMessage } from './from-core.js';
import { MessagesStreamEncoder } from './stream-encoder.js';
import { exposedError } from '../../core/errors.js';

export const messagesCodec: ChatCodec = {
  family: 'messages',
  dialect: 'messages',
  streamContentType: 'text/event-stream; charset=utf-8',
  // Anthropic's own keep-alive event; the official clients and Claude Code skip it.
  keepAliveFrame: 'event: ping\ndata: {"type": "ping"}\n\n',
  renderResponse: (response, clientModel) => renderMessage(response, clientModel),
  createStreamEncoder: (clientModel) => new MessagesStreamEncoder({ clientModel }),
  renderError: (error, requestId) => renderMessagesError(exposedError(error, requestId), requestId),
};
