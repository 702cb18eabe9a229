/**
 * Family E routes: `POST /v1/responses` (credential: `Authorization: Bearer`),
 * the stored-response endpoints (see stored-routes.ts) and
 * `POST /v1/responses/compact` (compact-route.ts). Every error leaves
 * in the OpenAI shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { chatCall } from '../../pipeline/call-basics.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { ResponseRepository } from '../../storage/responses.js';
import { responsesCodec } from './codec.js';
import { contextWindowFor } from '../../core/context-windows.js';
import { registerResponsesCountTokens } from './count-tokens.js';
import { registerCompactRoute } from './compact-route.js';
import { priorItems } from './conversation.js';
import { openExchange } from './open-exchange.js';
import { renderResponsesError } from '../../dialects/openai/errors.js';
import { wrapNativeAnswer } from './native-answer.js';
import { nativeRequest } from './native-request.js';
import { registerStoredRoutes } from './stored-routes.js';
import { responsesToCore } from './to-core.js';
import { responsesSessionAlias, responsesSessionHint } from './session-hint.js';
import { parseResponsesRequest } from './validate.js';
import { useFamilyErrors } from '../../http/family-errors.js';

export function registerResponsesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const repository = new ResponseRepository(ctx.store.db);

  useFamilyErrors(app, (error) => renderResponsesError(error));

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const authenticated = ctx.auth.authenticate(bearerToken(request), request.ip);
    // A key checked from the cache is no promise: nothing to wait for.
    const key = authenticated instanceof Promise ? await authenticated : authenticated;
    const parsed = parseResponsesRequest(request.body);
    const opening = openExchange(ctx, repository, key.record.id, parsed, (error) =>
      ctx.logger.error({ err: error, requestId: request.id }, 'storing a response failed'),
    );
    const { history, current, exchange } = opening instanceof Promise ? await opening : opening;
    const client = {
      rawBody: request.rawBody ?? Buffer.alloc(0),
      body: request.body as Record<string, unknown>,
      stream: parsed.stream === true,
    };
    await serveChat(
      chatServices(ctx),
      chatCall(request, key, {
        model: parsed.model,
        stream: client.stream,
        rawBody: client.rawBody,
        body: client.body,
        toCore: () =>
          responsesToCore(parsed, [...priorItems(history), ...current], {
            contextWindow: contextWindowFor(parsed.model, ctx.contextWindows),
            toolNames: exchange.toolNames,
            openSummary: exchange.openSummary,
          }),
        passThroughRequest: (channel) => nativeRequest(exchange, client, channel),
        wrapPassThrough: (result, channel) => wrapNativeAnswer(exchange, result, channel),
        startedAt,
        sessionHint: () => responsesSessionHint(client.body, exchange),
        sessionAlias: () => responsesSessionAlias(exchange),
      }),
      responsesCodec(exchange),
      fastifyOutput(reply),
    );
  };

  app.post('/v1/responses', create);
  registerStoredRoutes(app, ctx, repository);
  registerResponsesCountTokens(app, ctx, repository);
  registerCompactRoute(app, ctx, repository);
}
