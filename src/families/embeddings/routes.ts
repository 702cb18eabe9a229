/**
 * `POST /v1/embeddings` (and `/embeddings`) in the OpenAI dialect, Bearer
 * key, OpenAI error shape. Served by `openai-chat` channels as they are, by
 * `gemini` channels through `:batchEmbedContents`, and by the simulator.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { serveEmbeddingsBody } from './serve.js';

export function registerEmbeddingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    await serveEmbeddingsBody(ctx, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/embeddings', handler);
  app.post('/embeddings', handler);
}
