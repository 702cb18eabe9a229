/** A batch line of `/v1/chat/completions` (src/tasks/batches/), served as the route serves its requests (serve.ts, src/pipeline/chat-batch-line.ts). */
import { exposedError } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { chatBatchLine } from '../../pipeline/chat-batch-line.js';
import type { BatchLineHandler } from '../../pipeline/recorded-output.js';
import { chatCompletionsBody } from './serve.js';

export function chatCompletionsBatchLine(ctx: AppContext): BatchLineHandler {
  return chatBatchLine(ctx, {
    ...chatCompletionsBody,
    streamParam: 'stream',
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
  });
}
