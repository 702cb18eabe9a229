/**
 * `POST /v1/responses/compact`: the conversation in (`input`, optionally
 * continuing `previous_response_id`), the compacted window out, plain JSON
 * `{"object": "response.compaction", "output": [...], "usage": {...}}`: the
 * user messages kept as they were, then exactly one `compaction` item.
 *
 * An `openai-responses` channel answers it itself (the body passes through
 * to its `/responses/compact`); on any other upstream the gateway asks for a
 * hand-off summary and seals it (see compaction.ts). Nothing is stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ChatResponse } from '../../core/chat.js';
import { contextWindowFor } from '../../core/context-windows.js';
import { exposedError } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { chatCall } from '../../pipeline/call-basics.js';
import { fastifyOutput } from '../../pipeline/chat-output.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { chatServices } from '../../pipeline/chat-services.js';
import type { ChatCodec } from '../../pipeline/types.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { asksForCompaction, summarisingRequest } from './compaction.js';
import { priorItems, type SourcedItem } from './conversation.js';
import { answerText, type ResponsesExchange } from './exchange.js';
import { nativeRequest } from './native-request.js';
import { openExchange } from './open-exchange.js';
import { renderUsage } from './response-object.js';
import { itemKind, type InputItem } from '../../dialects/responses/schema-items.js';
import { ResponsesStreamEncoder } from './stream-encoder.js';
import { responsesToCore } from './to-core.js';
import { parseResponsesRequest } from './validate.js';

/** The routing word that sends a pass-through body to an OpenAI channel's `/responses/compact`. */
const COMPACT_METHOD = 'compact';

export function registerCompactRoute(app: FastifyInstance, ctx: AppContext, repository: ResponseRepository): void {
  app.post('/v1/responses/compact', async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const body = request.body;
    // The endpoint neither streams nor stores; the rest of the body is a Responses request's.
    const parsed = parseResponsesRequest(isObject(body) ? { ...body, stream: false, store: false } : body);
    const { history, current, exchange } = await openExchange(ctx, repository, key.record.id, parsed, () => undefined);
    const conversation = (): SourcedItem[] => [...priorItems(history), ...current];
    const client = { rawBody: request.rawBody ?? Buffer.alloc(0), body: body as Record<string, unknown>, stream: false };
    await serveChat(
      chatServices(ctx),
      chatCall(request, key, {
        model: parsed.model,
        stream: false,
        rawBody: client.rawBody,
        body: client.body,
        passThroughMethod: COMPACT_METHOD,
        toCore: () => {
          const items = conversation();
          const core = responsesToCore(parsed, items, {
            contextWindow: contextWindowFor(parsed.model, ctx.contextWindows),
            toolNames: exchange.toolNames,
            openSummary: exchange.openSummary,
          });
          // An input that already ends with a trigger was made a summarising request by to-core.
          return asksForCompaction(items) ? core : summarisingRequest(core);
        },
        passThroughRequest: async (channel) => {
          const own = await nativeRequest(exchange, client, channel);
          return { ...(own ?? client), method: COMPACT_METHOD };
        },
        startedAt,
      }),
      compactCodec(exchange, () => keptMessages(conversation())),
      fastifyOutput(reply),
    );
  });
}

function compactCodec(exchange: ResponsesExchange, kept: () => InputItem[]): ChatCodec {
  return {
    family: 'responses.compact',
    dialect: 'responses',
    streamContentType: 'text/event-stream; charset=utf-8',
    renderResponse: (answer: ChatResponse) => ({
      id: exchange.id,
      object: 'response.compaction',
      created_at: exchange.createdAt,
      output: [...kept(), exchange.compactionOutput(answerText(answer))],
      usage: renderUsage(answer.usage),
    }),
    // Never streamed (the request is made plain); present because every codec has one.
    createStreamEncoder: () => new ResponsesStreamEncoder(exchange),
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId)),
  };
}

/** The user's own messages, as the client sent them: the summary replaces everything else. */
function keptMessages(items: readonly SourcedItem[]): InputItem[] {
  return items.map(({ item }) => item).filter((item) => itemKind(item) === 'message' && item.role === 'user');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
