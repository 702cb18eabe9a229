/**
 * Family C routes: `POST /v1/messages` (and `POST /messages`, for clients
 * whose base URL already ends in /v1). Credentials: `x-api-key` or
 * `Authorization: Bearer` (current official clients send Bearer).
 */
import { withoutSealedThinking } from './native-reasoning.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { chatCall } from '../../pipeline/call-basics.js';
import type { AppContext } from '../../http/context.js';
import { messagesCodec } from './codec.js';
import { registerMessagesCountTokens } from './count-tokens.js';
import { registerMessageBatchRoutes } from './batch-routes.js';
import { authenticateMessagesRequest } from './request-key.js';
import { messagesToCore } from './to-core.js';
import { messagesSessionHint } from './session-hint.js';
import { parseMessagesRequest } from './validate.js';
import { useFamilyErrors } from '../../http/family-errors.js';

export function registerMessagesRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error, requestId) => messagesCodec.renderError(error, requestId));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = authenticateMessagesRequest(ctx, request);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    const parsed = parseMessagesRequest(request.body);
    await serveChat(
      chatServices(ctx),
      chatCall(request, key, {
        model: parsed.model,
        stream: parsed.stream === true,
        rawBody: request.rawBody ?? Buffer.alloc(0),
        body: request.body as Record<string, unknown>,
        toCore: () => messagesToCore(parsed),
        passThroughRequest: () => withoutSealedThinking(request.body as Record<string, unknown>, parsed.stream === true),
        startedAt,
        sessionHint: () => messagesSessionHint(request.body as Record<string, unknown>),
      }),
      messagesCodec,
      fastifyOutput(reply),
    );
  };

  app.post('/v1/messages', handler);
  app.post('/messages', handler);
  registerMessagesCountTokens(app, ctx);
  registerMessageBatchRoutes(app, ctx);
}
