/**
 * Embeddings on Vertex AI: Google's embedding models (`text-embedding-*`,
 * `text-multilingual-embedding-*`, `gemini-embedding-*`) by their `:predict`
 * method, `POST …/publishers/google/models/<model>:predict` with
 * `{"instances":[{"content","task_type"?,"title"?}],"parameters"?:{"outputDimensionality"}}`,
 * answered `{"predictions":[{"embeddings":{"values":[…],"statistics":{"token_count"}}}]}`
 * ("Get text embeddings", Vertex AI). Vertex has no `batchEmbedContents`.
 * `gemini-embedding-*` takes one instance per request, so its inputs go one a
 * request, together; the others take them all in one. The usage is the sum
 * of the predictions' token counts.
 */
import type { EmbeddingRequest, EmbeddingResponse } from '../../core/embedding.js';
import { GatewayError } from '../../core/errors.js';
import { limitsOf } from '../../core/upstream-limits.js';
import { callExchange } from '../call-exchange.js';
import { whenHeaders, type RequestHeaders } from '../endpoint.js';
import { throwGeminiStatus } from '../protocols/generate/errors.js';
import type { UpstreamCall } from '../types.js';
import { requestJsonOk } from '../whole-answer.js';
import { modelSegment, publisherModels, withBearer } from './endpoint.js';

interface Prediction {
  embeddings?: { values?: unknown; statistics?: { token_count?: unknown } };
}

/** Whether a model is one of Google's embedding models, served by `:predict`. */
export function isEmbeddingModel(upstreamModel: string): boolean {
  return /^(models\/)?(text-embedding-|text-multilingual-embedding-|gemini-embedding-)/.test(upstreamModel);
}

export function vertexEmbed(request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> {
  return whenHeaders(withBearer(call, { 'content-type': 'application/json' }), embed, request, call, undefined);
}

async function embed(headers: RequestHeaders, request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> {
  const url = `${publisherModels(call, 'google')}${modelSegment(call.upstreamModel)}:predict`;
  const oneEach = /^(models\/)?gemini-embedding-/.test(call.upstreamModel);
  const batches = oneEach ? request.inputs.map((input) => [input]) : [request.inputs];
  const answers = await Promise.all(batches.map((inputs) => predict(url, headers, inputs, request, call)));
  const vectors: number[][] = [];
  let tokens = 0;
  let counted = true;
  for (const predictions of answers) {
    for (const prediction of predictions) {
      const values = prediction.embeddings?.values;
      if (!Array.isArray(values)) throw new GatewayError('upstream_error', 'upstream answered an embeddings request with a prediction that has no vector');
      vectors.push(values as number[]);
      const count = prediction.embeddings?.statistics?.token_count;
      if (typeof count === 'number') tokens += count;
      else counted = false;
    }
  }
  if (vectors.length !== request.inputs.length) throw new GatewayError('upstream_error', 'upstream answered an embeddings request without one vector per input');
  return counted ? { vectors, inputTokens: tokens } : { vectors };
}

async function predict(url: string, headers: RequestHeaders, inputs: string[], request: EmbeddingRequest, call: UpstreamCall): Promise<Prediction[]> {
  const instances = inputs.map((content) => {
    const instance: Record<string, string> = { content };
    if (request.taskType !== undefined) instance.task_type = request.taskType;
    if (request.title !== undefined) instance.title = request.title;
    return instance;
  });
  const body: Record<string, unknown> = { instances };
  if (request.dimensions !== undefined) body.parameters = { outputDimensionality: request.dimensions };
  const json = await requestJsonOk<{ predictions?: Prediction[] }>(callExchange(call, url, headers, JSON.stringify(body), throwGeminiStatus), limitsOf(call).maxBodyBytes);
  return Array.isArray(json.predictions) ? json.predictions : [];
}
