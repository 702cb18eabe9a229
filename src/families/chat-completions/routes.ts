/**
 * Family F routes: `POST /v1/chat/completions` (and `/chat/completions`, for
 * clients whose base URL already ends in /v1). Credential:
 * `Authorization: Bearer`; errors in the OpenAI shape. An `openai-chat`
 * channel gets the client's bytes (pass-through); every other upstream type
 * is reached by translation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { serveChatCompletionsBody } from './serve.js';

export function registerChatCompletionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = ctx.auth.authenticate(bearerToken(request), request.ip);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    await serveChatCompletionsBody(ctx, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/chat/completions', handler);
  app.post('/chat/completions', handler);
}
