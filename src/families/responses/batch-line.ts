/**
 * A batch line of `/v1/responses` (src/tasks/batches/), served by the path a
 * `POST /v1/responses` takes (`serveCreate`: the stored conversation a
 * `previous_response_id` continues, routing, billing, a request-log row, the
 * answer stored unless `store: false`) into a recorded output. A line asking
 * to stream or to run in the background is refused: a batch line is already
 * asynchronous, and its answer is the output file's.
 */
import { exposedError, invalidRequest } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { batchOrigin, recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { ResponseRepository } from '../../storage/responses.js';
import { serveCreate } from './create.js';

export function responsesBatchLine(ctx: AppContext): BatchLineHandler {
  const repository = new ResponseRepository(ctx.store.db);
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        if (line.body.stream === true) throw invalidRequest('stream is not supported in a batch request', 'stream');
        if (line.body.background === true) throw invalidRequest('background is not supported in a batch request: a batch line already runs in the background', 'background');
        await serveCreate(ctx, repository, batchOrigin(line), line.key, line.body, Buffer.from(JSON.stringify(line.body)), output, startedAt);
      },
      (error, requestId) => renderOpenAIError(exposedError(error, requestId)),
    );
}
