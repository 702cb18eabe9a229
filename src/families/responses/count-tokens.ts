/**
 * Family E counting: `POST /v1/responses/input_tokens`. The body is a
 * Responses request whose `input` may be left out; the answer is
 * `{"object": "response.input_tokens", "input_tokens": N}`. A
 * `previous_response_id` counts the conversation it continues, as a
 * generation would send it: a native channel holding that response gets its
 * own id, any other the conversation in full; the gateway's estimate counts
 * every stored turn.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serveCountTokens, type CountCodec } from '../../pipeline/count-tokens.js';
import { callBasics } from '../../pipeline/call-basics.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { priorItems } from './conversation.js';
import { openExchange } from './open-exchange.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { completeHistory } from './history.js';
import { nativeRequest } from './native-request.js';
import { responsesToCore } from './to-core.js';
import { parseResponsesRequest, type ValidatedRequest } from './validate.js';

export const responsesCountCodec: CountCodec = {
  family: 'responses.input_tokens',
  dialect: 'responses',
  renderCount: (inputTokens) => ({ object: 'response.input_tokens', input_tokens: inputTokens }),
  renderError: (error) => renderOpenAIError(error),
};

/** The Responses validation; `input` is optional when counting (instructions and tools alone have a size). */
export function parseResponsesCountRequest(body: unknown): ValidatedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { input?: unknown }).input != null) {
    return parseResponsesRequest(body);
  }
  return parseResponsesRequest({ ...body, input: [] });
}

export function registerResponsesCountTokens(app: FastifyInstance, ctx: AppContext, repository: ResponseRepository): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const parsed = parseResponsesCountRequest(request.body);
    // A count records nothing.
    const { history, current, exchange } = await openExchange(ctx, repository, key.record.id, parsed, () => undefined);
    const client = { rawBody: request.rawBody ?? Buffer.alloc(0), body: request.body as Record<string, unknown>, stream: false };
    await serveCountTokens(
      requestServices(ctx),
      {
        ...callBasics(request, key, parsed.model),
        startedAt,
        nativeRequest: async (channel) => (await nativeRequest(exchange, client, channel)) ?? client,
        toCore: async () => {
          // A native channel without a counting endpoint may leave the estimate to a conversation not read yet.
          await completeHistory(repository, key.record.id, history);
          return responsesToCore(parsed, [...priorItems(history), ...current], { openSummary: exchange.openSummary });
        },
      },
      responsesCountCodec,
      fastifyOutput(reply),
    );
  };

  app.post('/v1/responses/input_tokens', handler);
}
