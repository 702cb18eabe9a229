/**
 * One `/v1/embeddings` body served, from a key and the parsed JSON to the
 * answer on an output: what `POST /v1/embeddings` and a batch line of it both
 * call, so that a line and a request cannot drift.
 */
import { exposedError } from '../../core/errors.js';
import { countTokens } from '../../core/tokens.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import type { CallOrigin } from '../../pipeline/call-basics.js';
import type { RequestOutput } from '../../pipeline/chat-output.js';
import { requestServices } from '../../pipeline/chat-services.js';
import { serveEmbeddings } from '../../pipeline/embeddings.js';
import type { RenderedError } from '../../pipeline/types.js';
import { renderEmbeddings } from './render.js';
import { parseEmbeddingsRequest, textInputs, tokenInputCount } from './validate.js';

export const renderEmbeddingsError = (error: Parameters<typeof exposedError>[0], requestId: string): RenderedError => renderOpenAIError(exposedError(error, requestId), 'chat-completions');

export async function serveEmbeddingsBody(ctx: AppContext, origin: CallOrigin, key: ClientKey, body: unknown, rawBody: Buffer, output: RequestOutput, startedAt: number): Promise<void> {
  const parsed = parseEmbeddingsRequest(body);
  const texts = textInputs(parsed.input);
  const base64 = parsed.encoding_format === 'base64';
  await serveEmbeddings(
    requestServices(ctx),
    {
      requestId: origin.id,
      key,
      clientIp: origin.ip,
      headers: origin.headers,
      model: parsed.model,
      startedAt,
      request: { model: parsed.model, inputs: texts ?? [], ...(parsed.dimensions != null ? { dimensions: parsed.dimensions } : {}) },
      openAiBody: { rawBody, body: body as Record<string, unknown>, stream: false },
      needsPassThrough: texts === undefined,
      countInput: () => (texts ? texts.reduce((sum, text) => sum + countTokens(text), 0) : tokenInputCount(parsed.input)),
    },
    {
      family: 'embeddings',
      render: (response, inputTokens) => renderEmbeddings(response, { model: parsed.model, base64, inputTokens }),
      renderError: renderEmbeddingsError,
    },
    output,
  );
}
