/**
 * A batch line of a chat family (Chat Completions, legacy Completions,
 * Messages), served by the path its route's requests take (validation,
 * routing, failover, the key's limits, billing and a request-log row) into a
 * recorded output for the batch. What differs per family is what its route
 * decides too: how a body is parsed, converted and rendered. A line asking to
 * stream is refused, as the vendors' batch APIs refuse it.
 */
import type { ChatRequest } from '../core/chat.js';
import { type GatewayError, invalidRequest } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import { chatCall, type ChatCallFields } from './call-basics.js';
import { serveChat } from './chat-pipeline.js';
import { chatServices } from './chat-services.js';
import { batchOrigin, type BatchLineHandler, recordAnswer } from './recorded-output.js';
import type { ChatCodec, RenderedError } from './types.js';

export interface ChatBatchFamily<Parsed extends { model: string }> {
  /** Where the line's `stream` sits, for the refusal (`params.stream` in a Message Batch). */
  streamParam: string;
  parse(body: Record<string, unknown>): Parsed;
  toCore(parsed: Parsed): ChatRequest;
  codec(parsed: Parsed): ChatCodec;
  renderError(error: GatewayError, requestId: string): RenderedError;
  /** The body a same-dialect upstream gets, where it is not the line's body as it is. */
  passThroughRequest?(body: Record<string, unknown>): ReturnType<NonNullable<ChatCallFields['passThroughRequest']>>;
  sessionHint?(body: Record<string, unknown>): ReturnType<NonNullable<ChatCallFields['sessionHint']>>;
}

export function chatBatchLine<Parsed extends { model: string }>(ctx: AppContext, family: ChatBatchFamily<Parsed>): BatchLineHandler {
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', family.streamParam);
        const parsed = family.parse(line.body);
        const { passThroughRequest, sessionHint } = family;
        await serveChat(
          chatServices(ctx),
          chatCall(batchOrigin(line), line.key, {
            model: parsed.model,
            stream: false,
            rawBody: Buffer.from(JSON.stringify(line.body)),
            body: line.body,
            toCore: () => family.toCore(parsed),
            passThroughRequest: passThroughRequest ? () => passThroughRequest(line.body) : undefined,
            startedAt,
            sessionHint: sessionHint ? () => sessionHint(line.body) : undefined,
          }),
          family.codec(parsed),
          output,
        );
      },
      family.renderError,
    );
}
