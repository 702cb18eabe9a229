/** How a Messages body is served (src/pipeline/chat-body.ts): what `POST /v1/messages` and a Message Batch request both call. */
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import { type ChatBodyFamily, serveChatBody } from '../../pipeline/chat-body.js';
import type { ChatOutput } from '../../pipeline/chat-output.js';
import { messagesCodec } from './codec.js';
import { withoutSealedThinking } from './native-reasoning.js';
import { messagesSessionHint } from './session-hint.js';
import { messagesToCore } from './to-core.js';
import type { MessagesRequest } from '../../dialects/messages/schema.js';
import { parseMessagesRequest } from './validate.js';

export const messagesBody: ChatBodyFamily<MessagesRequest> = {
  parse: parseMessagesRequest,
  toCore: messagesToCore,
  codec: () => messagesCodec,
  passThroughRequest: (body, parsed) => withoutSealedThinking(body, parsed.stream === true),
  sessionHint: messagesSessionHint,
};

export function serveMessagesBody(ctx: AppContext, origin: CallOrigin, key: ClientKey, body: unknown, rawBody: Buffer, output: ChatOutput, startedAt: number): Promise<void> {
  return serveChatBody(ctx, messagesBody, origin, key, body, rawBody, output, startedAt);
}
