/**
 * Family C routes: `POST /v1/messages` (and `POST /messages`, for clients
 * whose base URL already ends in /v1). Credentials: `x-api-key` or
 * `Authorization: Bearer` (current official clients send Bearer).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { messagesCodec } from './codec.js';
import { registerMessagesCountTokens } from './count-tokens.js';
import { registerMessageBatchRoutes } from './batch-routes.js';
import { authenticateMessagesRequest } from './request-key.js';
import { serveMessagesBody } from './serve.js';
import { useFamilyErrors } from '../../http/family-errors.js';

export function registerMessagesRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error, requestId) => messagesCodec.renderError(error, requestId));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = authenticateMessagesRequest(ctx, request);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    await serveMessagesBody(ctx, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/messages', handler);
  app.post('/messages', handler);
  registerMessagesCountTokens(app, ctx);
  registerMessageBatchRoutes(app, ctx);
}
