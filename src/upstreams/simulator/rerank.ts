/**
 * Simulated rerank: a document's score is the share of the query's words it
 * contains (case-folded), nudged by a hash of the model, query and document
 * so that ties are broken the same way on every run; scores stay in [0, 1],
 * highest first. Input tokens are the query's once per document plus each
 * document's, counted by the gateway's tokenizer.
 */
import type { RerankRequest, RerankResponse } from '../../dialects/rerank/wire.js';
import { countTokens } from '../../core/tokens.js';
import type { UpstreamCall } from '../types.js';
import { hashNumber } from './hash.js';
import { simulatedCall } from './plain-call.js';

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export async function simulateRerank(request: RerankRequest, call: UpstreamCall): Promise<RerankResponse> {
  await simulatedCall(call);
  const query = new Set(words(request.query));
  const scored = request.documents.map((document, index) => {
    const present = new Set(words(document));
    let shared = 0;
    for (const word of query) if (present.has(word)) shared++;
    const overlap = query.size === 0 ? 0 : shared / query.size;
    // At most 0.01 of noise: word overlap decides the order, the hash only breaks ties.
    const noise = (hashNumber(`${request.model}\u0000${request.query}\u0000${document}`) % 1000) / 100_000;
    return { index, relevanceScore: Math.round(Math.min(1, overlap * 0.99 + noise) * 1e6) / 1e6 };
  });
  scored.sort((a, b) => b.relevanceScore - a.relevanceScore || a.index - b.index);
  const queryTokens = countTokens(request.query);
  const inputTokens = request.documents.reduce((sum, document) => sum + queryTokens + countTokens(document), 0);
  return { results: request.topN === undefined ? scored : scored.slice(0, request.topN), inputTokens };
}
