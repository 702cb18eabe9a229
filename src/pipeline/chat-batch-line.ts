/**
 * A batch line of a chat family (Chat Completions, legacy Completions,
 * Messages), served by the path its route's requests take (chat-body.ts:
 * validation, routing, failover, the key's limits, billing and a request-log
 * row) into a recorded output for the batch. A line asking to stream is
 * refused, as the vendors' batch APIs refuse it.
 */
import { type GatewayError, invalidRequest } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import { type ChatBodyFamily, serveChatBody } from './chat-body.js';
import { batchOrigin, type BatchLineHandler, recordAnswer } from './recorded-output.js';
import type { RenderedError } from './types.js';

export interface ChatBatchFamily<Parsed extends { model: string; stream?: boolean | null }> extends ChatBodyFamily<Parsed> {
  /** Where the line's `stream` sits, for the refusal (`params.stream` in a Message Batch). */
  streamParam: string;
  renderError(error: GatewayError, requestId: string): RenderedError;
}

export function chatBatchLine<Parsed extends { model: string; stream?: boolean | null }>(ctx: AppContext, family: ChatBatchFamily<Parsed>): BatchLineHandler {
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', family.streamParam);
        await serveChatBody(ctx, family, batchOrigin(line), line.key, line.body, Buffer.from(JSON.stringify(line.body)), output, startedAt);
      },
      family.renderError,
    );
}
