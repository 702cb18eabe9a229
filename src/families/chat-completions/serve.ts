/** How a Chat Completions body is served (src/pipeline/chat-body.ts): what `POST /v1/chat/completions` and a batch line of it both call. */
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import { type ChatBodyFamily, serveChatBody } from '../../pipeline/chat-body.js';
import type { ChatOutput } from '../../pipeline/chat-output.js';
import { chatCompletionsCodec } from './codec.js';
import { chatCompletionsSessionHint } from './session-hint.js';
import { chatCompletionsToCore } from './to-core.js';
import { parseChatCompletionsRequest, type ValidatedChatRequest } from './validate.js';

export const chatCompletionsBody: ChatBodyFamily<ValidatedChatRequest> = {
  parse: parseChatCompletionsRequest,
  toCore: chatCompletionsToCore,
  codec: chatCompletionsCodec,
  sessionHint: chatCompletionsSessionHint,
};

export function serveChatCompletionsBody(ctx: AppContext, origin: CallOrigin, key: ClientKey, body: unknown, rawBody: Buffer, output: ChatOutput, startedAt: number): Promise<void> {
  return serveChatBody(ctx, chatCompletionsBody, origin, key, body, rawBody, output, startedAt);
}
