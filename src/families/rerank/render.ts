/**
 * The rerank answer in the shape both Cohere's v2 client and Jina's read:
 * `id`, `model`, `results[{ index, relevance_score, document? }]` (highest
 * first; `document` as `{ text }` when asked for), `usage` as Jina and vLLM
 * give it (`prompt_tokens`, `total_tokens`) and `meta` as Cohere gives it
 * (`billed_units`: one search unit per 100 documents, and the input tokens).
 */
import type { RerankRequest, RerankResponse } from '../../dialects/rerank/wire.js';

export function renderRerank(response: RerankResponse, options: { id: string; request: RerankRequest; returnDocuments: boolean; inputTokens: number }) {
  const { request } = options;
  return {
    id: options.id,
    model: request.model,
    results: response.results.map(({ index, relevanceScore }) =>
      options.returnDocuments ? { index, relevance_score: relevanceScore, document: { text: request.documents[index] ?? '' } } : { index, relevance_score: relevanceScore },
    ),
    usage: { prompt_tokens: options.inputTokens, total_tokens: options.inputTokens },
    meta: { api_version: { version: '2' }, billed_units: { search_units: Math.max(1, Math.ceil(request.documents.length / 100)), input_tokens: options.inputTokens } },
  };
}
