/** A batch line of `/v1/completions` (src/tasks/batches/), served by the route's own path and recorded for the output file; streaming is refused. */
import { exposedError, invalidRequest } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { chatCall } from '../../pipeline/call-basics.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { batchOrigin, recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { completionsCodec } from './codec.js';
import { completionsToCore } from './to-core.js';
import { parseCompletionsRequest } from './validate.js';

export function completionsBatchLine(ctx: AppContext): BatchLineHandler {
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', 'stream');
        const parsed = parseCompletionsRequest(line.body);
        await serveChat(
          chatServices(ctx),
          chatCall(batchOrigin(line), line.key, {
            model: parsed.model,
            stream: false,
            rawBody: Buffer.from(JSON.stringify(line.body)),
            body: line.body,
            toCore: () => completionsToCore(parsed),
            startedAt,
          }),
          completionsCodec(parsed),
          output,
        );
      },
      (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
    );
}
