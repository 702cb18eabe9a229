/**
 * Legacy Completions routes: `POST /v1/completions` (and `/completions`, for
 * clients whose base URL already ends in /v1). Credential:
 * `Authorization: Bearer`; errors in the OpenAI shape. An `openai-chat`
 * channel that declares `completionsEndpoint` gets the client's bytes at its
 * server's `/completions` (pass-through); every other channel is reached
 * through the internal chat request (to-core.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { serveCompletionsBody } from './serve.js';

export function registerCompletionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = ctx.auth.authenticate(bearerToken(request), request.ip);
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    await serveCompletionsBody(ctx, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/completions', handler);
  app.post('/completions', handler);
}
