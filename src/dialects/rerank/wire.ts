/**
 * Rerank as the gateway and its upstreams see it: the request read from the
 * client's body, and the ranking an upstream computes (the family writes it
 * in the Cohere v2/Jina answer shape, render.ts of the family).
 */

export interface RerankRequest {
  /** The model name as the client sent it (before channel model mapping). */
  model: string;
  query: string;
  /** Each document's text, in the client's order. */
  documents: string[];
  /** At most this many results; all when absent. */
  topN?: number;
}

export interface RerankResponse {
  /** Results by relevance, highest first; `index` is the document's position in the request. */
  results: Array<{ index: number; relevanceScore: number }>;
  /** Input tokens the upstream reported; undefined when it reports none (the gateway counts). */
  inputTokens?: number;
}

/** The usage fields rerank servers answer with: Jina and vLLM `usage.total_tokens`, Together `usage.prompt_tokens`, Cohere `meta.billed_units.input_tokens`. */
export interface RerankAnswerUsage {
  usage?: { prompt_tokens?: number; total_tokens?: number };
  meta?: { billed_units?: { input_tokens?: number } };
}

/** The input tokens a rerank answer reports, if any. */
export function rerankInputTokens(answer: RerankAnswerUsage): number | undefined {
  const tokens = answer.usage?.prompt_tokens ?? answer.usage?.total_tokens ?? answer.meta?.billed_units?.input_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0 ? tokens : undefined;
}
