/**
 * One `response.create`, from an authenticated key and a parsed body to the
 * answer written on a `ChatOutput`: the same path whether the turn came as an
 * HTTP POST or as a message on the Responses WebSocket (the transport only
 * changes where the events go).
 */
import { serveChat } from '../../pipeline/chat-pipeline.js';
import type { ChatOutput } from '../../pipeline/chat-output.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { chatCall, type CallOrigin } from '../../pipeline/call-basics.js';
import type { AppContext } from '../../http/context.js';
import type { ClientKey } from '../../http/auth.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { contextWindowFor } from '../../core/context-windows.js';
import { responsesCodec } from './codec.js';
import { priorItems } from './conversation.js';
import { wrapNativeAnswer } from './native-answer.js';
import { nativeRequest } from './native-request.js';
import { openExchange } from './open-exchange.js';
import { responsesToCore } from './to-core.js';
import { responsesSessionAlias, responsesSessionHint } from './session-hint.js';
import { parseResponsesRequest } from './validate.js';

export async function serveCreate(
  ctx: AppContext,
  repository: ResponseRepository,
  origin: CallOrigin,
  key: ClientKey,
  body: unknown,
  rawBody: Buffer,
  output: ChatOutput,
  startedAt: number,
  /** Keep a `store: false` answer where later turns can build on it (the WebSocket's connection-local state). */
  keepUnstored = false,
): Promise<void> {
  const parsed = parseResponsesRequest(body);
  const opening = openExchange(ctx, repository, key.record.id, parsed, (error) => ctx.logger.error({ err: error, requestId: origin.id }, 'storing a response failed'), keepUnstored);
  const { history, current, exchange } = opening instanceof Promise ? await opening : opening;
  const client = {
    rawBody,
    body: body as Record<string, unknown>,
    stream: parsed.stream === true,
  };
  await serveChat(
    chatServices(ctx),
    chatCall(origin, key, {
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
    output,
  );
}
