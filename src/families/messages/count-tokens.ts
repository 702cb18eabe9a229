/**
 * Family C counting: `POST /v1/messages/count_tokens` (and
 * `/messages/count_tokens`). The body is a Messages request without
 * `max_tokens`; the answer is `{"input_tokens": N}`. Credentials and the
 * required `anthropic-version` header are those of `/v1/messages`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serveCountTokens, type CountCodec } from '../../pipeline/count-tokens.js';
import { callBasics } from '../../pipeline/call-basics.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { renderMessagesError } from '../../dialects/messages/errors.js';
import { withoutSealedThinking } from './native-reasoning.js';
import { authenticateMessagesRequest } from './request-key.js';
import { messagesToCore } from './to-core.js';
import { parseMessagesRequest, type MessagesRequest } from './validate.js';

export const messagesCountCodec: CountCodec = {
  family: 'messages.count_tokens',
  dialect: 'messages',
  renderCount: (inputTokens) => ({ input_tokens: inputTokens }),
  renderError: (error, requestId) => renderMessagesError(error, requestId),
};

/**
 * Stands in for the output limit a count does not have, so the generation
 * rules (e.g. a thinking budget below `max_tokens`) never refuse a count.
 */
const NO_OUTPUT_LIMIT = Number.MAX_SAFE_INTEGER;

/** The Messages validation, without what only a generation needs. */
export function parseMessagesCountRequest(body: unknown): MessagesRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || 'max_tokens' in body) return parseMessagesRequest(body);
  return parseMessagesRequest({ ...body, max_tokens: NO_OUTPUT_LIMIT });
}

export function registerMessagesCountTokens(app: FastifyInstance, ctx: AppContext): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await authenticateMessagesRequest(ctx, request);
    const parsed = parseMessagesCountRequest(request.body);
    const client = { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false };
    await serveCountTokens(
      requestServices(ctx),
      {
        ...callBasics(request, key, parsed.model),
        startedAt,
        // Another provider's sealed thinking means nothing to the native counter: left out, as on /v1/messages.
        nativeRequest: () => withoutSealedThinking(client.body, false) ?? client,
        toCore: () => messagesToCore(parsed),
      },
      messagesCountCodec,
      fastifyOutput(reply),
    );
  };

  app.post('/v1/messages/count_tokens', handler);
  app.post('/messages/count_tokens', handler);
}
