/**
 * `POST /v1/rerank` (also `/v2/rerank` and `/rerank`, as LiteLLM serves it)
 * in the Cohere/Jina shape, Bearer key. Errors are in the OpenAI shape: the
 * peers (LiteLLM, vLLM) answer rerank errors in it, and every other route of
 * an OpenAI-style base URL does too. Served by `openai-chat` channels that
 * declare their server's rerank endpoint (`rerankEndpoint`, the body passed
 * as it is) and by the simulator.
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
import { renderRerank } from './render.js';
import { parseRerankRequest } from './validate.js';

export function registerRerankRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const { request: rerank, returnDocuments } = parseRerankRequest(request.body);
    await servePlainOperation(
      requestServices(ctx),
      {
        ...callBasics(request, key, rerank.model),
        startedAt,
        request: rerank,
        body: { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false },
        // The query is read against each document: counted once per document, as the servers bill it.
        countInput: () => rerank.documents.reduce((sum, document) => sum + countTokens(rerank.query) + countTokens(document), 0),
      },
      {
        family: 'rerank',
        operation: (adapter) => adapter.rerank,
        render: (response, inputTokens) => renderRerank(response, { id: request.id, request: rerank, returnDocuments, inputTokens }),
        renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
      },
      fastifyOutput(reply),
    );
  };

  app.post('/v1/rerank', handler);
  app.post('/v2/rerank', handler);
  app.post('/rerank', handler);
}
