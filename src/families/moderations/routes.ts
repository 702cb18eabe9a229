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
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { callBasics } from '../../pipeline/call-basics.js';
import { servePlainOperation } from '../../pipeline/plain-operation.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { parseModerationsRequest } from './validate.js';

export function registerModerationsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const moderation = parseModerationsRequest(request.body);
    await servePlainOperation(
      requestServices(ctx),
      {
        ...callBasics(request, key, moderation.model),
        startedAt,
        request: moderation,
        body: { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false },
        countInput: () => moderation.inputs.reduce((sum, parts) => sum + parts.reduce((n, part) => n + (part.type === 'text' ? countTokens(part.text) : 0), 0), 0),
      },
      {
        family: 'moderations',
        operation: (adapter) => adapter.moderations,
        render: (response) => ({ id: `modr-${request.id}`, model: moderation.model, results: response.results }),
        renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
        freeUnlessPriced: true,
      },
      fastifyOutput(reply),
    );
  };

  app.post('/v1/moderations', handler);
  app.post('/moderations', handler);
}
