/**
 * A request of a Message Batch (`/v1/messages/batches`, src/tasks/batches/):
 * its `params` served as `POST /v1/messages` serves its requests (serve.ts,
 * src/pipeline/chat-batch-line.ts), the message or error recorded for the
 * batch's results.
 */
import type { AppContext } from '../../http/context.js';
import { chatBatchLine } from '../../pipeline/chat-batch-line.js';
import type { BatchLineHandler } from '../../pipeline/recorded-output.js';
import { messagesCodec } from './codec.js';
import { messagesBody } from './serve.js';

export function messagesBatchLine(ctx: AppContext): BatchLineHandler {
  return chatBatchLine(ctx, {
    ...messagesBody,
    streamParam: 'params.stream',
    renderError: (error, requestId) => messagesCodec.renderError(error, requestId),
  });
}
