/**
 * `POST /v1/embeddings` (and `/embeddings`) in the OpenAI dialect, Bearer
 * key, OpenAI error shape. Served by `openai-chat` channels as they are, by
 * `gemini` channels through `:batchEmbedContents`, and by the simulator.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { callBasics } from '../../pipeline/call-basics.js';
import { serveEmbeddings } from '../../pipeline/embeddings.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { renderEmbeddings } from './render.js';
import { parseEmbeddingsRequest, textInputs, tokenInputCount } from './validate.js';

export function registerEmbeddingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const parsed = parseEmbeddingsRequest(request.body);
    const texts = textInputs(parsed.input);
    const base64 = parsed.encoding_format === 'base64';
    await serveEmbeddings(
      requestServices(ctx),
      {
        ...callBasics(request, key, parsed.model),
        startedAt,
        request: { model: parsed.model, inputs: texts ?? [], ...(parsed.dimensions != null ? { dimensions: parsed.dimensions } : {}) },
        openAiBody: { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false },
        needsPassThrough: texts === undefined,
        countInput: () => (texts ? texts.reduce((sum, text) => sum + countTokens(text), 0) : tokenInputCount(parsed.input)),
      },
      {
        family: 'embeddings',
        render: (response, inputTokens) => renderEmbeddings(response, { model: parsed.model, base64, inputTokens }),
        renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
      },
      fastifyOutput(reply),
    );
  };

  app.post('/v1/embeddings', handler);
  app.post('/embeddings', handler);
}
