/** How a legacy Completions body is served (src/pipeline/chat-body.ts): what `POST /v1/completions` and a batch line of it both call. */
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import { type ChatBodyFamily, serveChatBody } from '../../pipeline/chat-body.js';
import type { ChatOutput } from '../../pipeline/chat-output.js';
import { completionsCodec } from './codec.js';
import { completionsToCore } from './to-core.js';
import { parseCompletionsRequest, type ValidatedCompletionsRequest } from './validate.js';

export const completionsBody: ChatBodyFamily<ValidatedCompletionsRequest> = {
  parse: parseCompletionsRequest,
  toCore: completionsToCore,
  codec: completionsCodec,
};

export function serveCompletionsBody(ctx: AppContext, origin: CallOrigin, key: ClientKey, body: unknown, rawBody: Buffer, output: ChatOutput, startedAt: number): Promise<void> {
  return serveChatBody(ctx, completionsBody, origin, key, body, rawBody, output, startedAt);
}
