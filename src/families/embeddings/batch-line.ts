/** A batch line of `/v1/embeddings` (src/tasks/batches/), served by the route's own path and recorded for the output file. */
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { requestServices } from '../../pipeline/chat-services.js';
import { serveEmbeddings } from '../../pipeline/embeddings.js';
import { recordAnswer, type BatchLineHandler } from '../../pipeline/recorded-output.js';
import { renderEmbeddings } from './render.js';
import { parseEmbeddingsRequest, textInputs, tokenInputCount } from './validate.js';

export function embeddingsBatchLine(ctx: AppContext): BatchLineHandler {
  const renderError = (error: Parameters<typeof exposedError>[0], requestId: string) => renderOpenAIError(exposedError(error, requestId), 'chat-completions');
  return (line) =>
    recordAnswer(
      line.requestId,
      async (output) => {
        const startedAt = Date.now();
        const parsed = parseEmbeddingsRequest(line.body);
        const texts = textInputs(parsed.input);
        const base64 = parsed.encoding_format === 'base64';
        await serveEmbeddings(
          requestServices(ctx),
          {
            requestId: line.requestId,
            key: line.key,
            clientIp: '',
            headers: {},
            model: parsed.model,
            startedAt,
            request: { model: parsed.model, inputs: texts ?? [], ...(parsed.dimensions != null ? { dimensions: parsed.dimensions } : {}) },
            openAiBody: { rawBody: Buffer.from(JSON.stringify(line.body)), body: line.body, stream: false },
            needsPassThrough: texts === undefined,
            countInput: () => (texts ? texts.reduce((sum, text) => sum + countTokens(text), 0) : tokenInputCount(parsed.input)),
          },
          {
            family: 'embeddings',
            render: (response, inputTokens) => renderEmbeddings(response, { model: parsed.model, base64, inputTokens }),
            renderError,
          },
          output,
        );
      },
      renderError,
    );
}
