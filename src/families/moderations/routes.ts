/**
 * `POST /v1/moderations` (and `/moderations`) in the OpenAI dialect, Bearer
 * key, OpenAI error shape; the answer is OpenAI's (`id`, `model`,
 * `results[{ flagged, categories, category_scores,
 * category_applied_input_types }]`). Served by `openai-chat` and
 * `openai-responses` channels whose server has OpenAI's moderations
 * (`moderationsEndpoint`, on by default at OpenAI's address; the body passed
 * as it is) and by the simulator. Free unless the model has a price.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { serveModerationsBody } from './serve.js';

export function registerModerationsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    await serveModerationsBody(ctx, request, key, request.body, request.rawBody ?? Buffer.alloc(0), fastifyOutput(reply), startedAt);
  };

  app.post('/v1/moderations', handler);
  app.post('/moderations', handler);
}
