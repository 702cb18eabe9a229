/**
 * Family E routes: `POST /v1/responses` (credential: `Authorization: Bearer`),
 * the stored-response endpoints (see stored-routes.ts) and
 * `POST /v1/responses/compact` (compact-route.ts). Every error leaves
 * in the OpenAI shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { ResponseRepository } from '../../storage/responses.js';
import { registerResponsesCountTokens } from './count-tokens.js';
import { registerCompactRoute } from './compact-route.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { registerStoredRoutes } from './stored-routes.js';
import { serveCreate } from './create.js';
import { registerResponsesWebSocket } from './websocket-route.js';
import { useFamilyErrors } from '../../http/family-errors.js';

export function registerResponsesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const repository = new ResponseRepository(ctx.store.db);

  useFamilyErrors(app, (error) => renderOpenAIError(error));

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = ctx.auth.authenticate(bearerToken(request), request.ip);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    await serveCreate(ctx, repository, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/responses', create);
  registerResponsesWebSocket(app, ctx, repository);
  registerStoredRoutes(app, ctx, repository);
  registerResponsesCountTokens(app, ctx, repository);
  registerCompactRoute(app, ctx, repository);
}
