/**
 * A request of a Message Batch (`/v1/messages/batches`, src/tasks/batches/):
 * its `params` served by the same path as `POST /v1/messages` (validation,
 * routing, failover, the key's limits, billing and a request-log row), the
 * message or error recorded for the batch's results. Streaming is refused.
 */
import { invalidRequest } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { chatCall } from '../../pipeline/call-basics.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { batchOrigin, recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { messagesCodec } from './codec.js';
import { withoutSealedThinking } from './native-reasoning.js';
import { messagesSessionHint } from './session-hint.js';
import { messagesToCore } from './to-core.js';
import { parseMessagesRequest } from './validate.js';

export function messagesBatchLine(ctx: AppContext): BatchLineHandler {
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', 'params.stream');
        const parsed = parseMessagesRequest(line.body);
        await serveChat(
          chatServices(ctx),
          chatCall(batchOrigin(line), line.key, {
            model: parsed.model,
            stream: false,
            rawBody: Buffer.from(JSON.stringify(line.body)),
            body: line.body,
            toCore: () => messagesToCore(parsed),
            passThroughRequest: () => withoutSealedThinking(line.body, false),
            startedAt,
            sessionHint: () => messagesSessionHint(line.body),
          }),
          messagesCodec,
          output,
        );
      },
      (error, requestId) => messagesCodec.renderError(error, requestId),
    );
}
