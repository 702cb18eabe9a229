/**
 * Embeddings on a channel of the content-generation dialect: every input in
 * one call of the endpoint's `batchEmbedContents` method
 * (`POST <base>/<version>/models/<model>:batchEmbedContents` for gemini),
 * vectors back in order. The service reports no token usage; the gateway counts the inputs.
 */
import type { EmbeddingRequest, EmbeddingResponse } from '../../../core/embedding.js';
import { GatewayError } from '../../../core/errors.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { UpstreamCall } from '../../types.js';
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { GenerateEndpoint } from './endpoint.js';
import type { GenerateSettings } from './settings.js';
import { throwGeminiStatus } from './errors.js';
import { callExchange } from '../../call-exchange.js';

export function generateEmbeddings<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>) {
  return (request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> => whenHeaders(endpoint.headers(call), embed, endpoint, request, call);
}

async function embed(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: EmbeddingRequest, call: UpstreamCall): Promise<EmbeddingResponse> {
  const model = call.upstreamModel.startsWith('models/') ? call.upstreamModel : `models/${call.upstreamModel}`;
  const requests = request.inputs.map((text) => {
    const one: Record<string, unknown> = { model, content: { parts: [{ text }] } };
    if (request.taskType !== undefined) one.taskType = request.taskType;
    if (request.title !== undefined) one.title = request.title;
    if (request.dimensions !== undefined) one.outputDimensionality = request.dimensions;
    return one;
  });
  const json = await requestJsonOk<{ embeddings?: Array<{ values?: number[] }> }>(
    callExchange(call, endpoint.url(call, 'batchEmbedContents'), headers, JSON.stringify({ requests }), throwGeminiStatus),
    limitsOf(call).maxBodyBytes,
  );
  const vectors = (json.embeddings ?? []).map((embedding) => embedding.values);
  if (vectors.length !== request.inputs.length || !vectors.every(Array.isArray)) throw new GatewayError('upstream_error', 'upstream answered an embeddings request without one vector per input');
  return { vectors: vectors as number[][] };
}
