/**
 * A batch line of `/v1/chat/completions` (src/tasks/batches/): served by the
 * same path as the route's requests (validation, routing, failover, the
 * key's limits, billing and a request-log row), its plain answer or error
 * recorded for the output file. A line asking to stream is refused, as
 * OpenAI refuses it.
 */
import { exposedError, invalidRequest } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { chatCall } from '../../pipeline/call-basics.js';
import { serveChat } from '../../pipeline/chat-pipeline.js';
import { chatServices } from '../../pipeline/chat-services.js';
import { batchOrigin, recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { chatCompletionsCodec } from './codec.js';
import { chatCompletionsSessionHint } from './session-hint.js';
import { chatCompletionsToCore } from './to-core.js';
import { parseChatCompletionsRequest } from './validate.js';

export function chatCompletionsBatchLine(ctx: AppContext): BatchLineHandler {
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', 'stream');
        const parsed = parseChatCompletionsRequest(line.body);
        await serveChat(
          chatServices(ctx),
          chatCall(batchOrigin(line), line.key, {
            model: parsed.model,
            stream: false,
            rawBody: Buffer.from(JSON.stringify(line.body)),
            body: line.body,
            toCore: () => chatCompletionsToCore(parsed),
            startedAt,
            sessionHint: () => chatCompletionsSessionHint(line.body),
          }),
          chatCompletionsCodec(parsed),
          output,
        );
      },
      (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
    );
}
