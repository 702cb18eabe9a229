/**
 * A request of a Message Batch (`/v1/messages/batches`, src/tasks/batches/):
 * its `params` served as `POST /v1/messages` serves its requests
 * (src/pipeline/chat-batch-line.ts), the message or error recorded for the
 * batch's results.
 */
import type { AppContext } from '../../http/context.js';
import { chatBatchLine } from '../../pipeline/chat-batch-line.js';
import type { BatchLineHandler } from '../../pipeline/recorded-output.js';
import { messagesCodec } from './codec.js';
import { withoutSealedThinking } from './native-reasoning.js';
import { messagesSessionHint } from './session-hint.js';
import { messagesToCore } from './to-core.js';
import { parseMessagesRequest } from './validate.js';

export function messagesBatchLine(ctx: AppContext): BatchLineHandler {
  return chatBatchLine(ctx, {
    streamParam: 'params.stream',
    parse: parseMessagesRequest,
    toCore: messagesToCore,
    codec: () => messagesCodec,
    renderError: (error, requestId) => messagesCodec.renderError(error, requestId),
    passThroughRequest: (body) => withoutSealedThinking(body, false),
    sessionHint: messagesSessionHint,
  });
}
