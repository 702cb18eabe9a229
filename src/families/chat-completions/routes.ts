/**
 * Family F routes: `POST /v1/chat/completions` (and `/chat/completions`, for
 * clients whose base URL already ends in /v1). Credential:
 * `Authorization: Bearer`; errors in the OpenAI shape. An `openai-chat`
 * channel gets the client's bytes (pass-through); every other upstream type
 * is reached by translation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { chatCall } from '../../pipeline/call-basics.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { chatServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { chatCompletionsCodec } from './codec.js';
import { chatCompletionsToCore } from './to-core.js';
import { chatCompletionsSessionHint } from './session-hint.js';
import { parseChatCompletionsRequest } from './validate.js';

export function registerChatCompletionsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = ctx.auth.authenticate(bearerToken(request), request.ip);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    const parsed = parseChatCompletionsRequest(request.body);
    await serveChat(
      chatServices(ctx),
      chatCall(request, key, {
        model: parsed.model,
        stream: parsed.stream === true,
        rawBody: request.rawBody ?? Buffer.alloc(0),
        body: request.body as Record<string, unknown>,
        toCore: () => chatCompletionsToCore(parsed),
        startedAt,
        sessionHint: () => chatCompletionsSessionHint(request.body as Record<string, unknown>),
      }),
      chatCompletionsCodec(parsed),
      fastifyOutput(reply),
    );
  };

  app.post('/v1/chat/completions', handler);
  app.post('/chat/completions', handler);
}
