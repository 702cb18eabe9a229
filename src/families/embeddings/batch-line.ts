/** A batch line of `/v1/embeddings` (src/tasks/batches/), served by the route's own path (serve.ts) and recorded for the output file. */
import type { AppContext } from '../../http/context.js';
import { batchOrigin, recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { renderEmbeddingsError, serveEmbeddingsBody } from './serve.js';

export function embeddingsBatchLine(ctx: AppContext): BatchLineHandler {
  return (line) =>
    recordAnswer(line.requestId, (output) => serveEmbeddingsBody(ctx, batchOrigin(line), line.key, line.body, Buffer.from(JSON.stringify(line.body)), output, Date.now()), renderEmbeddingsError);
}
