/**
 * The rerank request as the peers take it (Cohere v2, Jina, LiteLLM, vLLM):
 * `model`, `query`, `documents` (strings, or objects with `text`), `top_n`,
 * `return_documents`. Other fields (`max_chunks_per_doc`,
 * `max_tokens_per_doc`, `rank_fields`, …) are kept for a native upstream.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

/** Cohere's and Jina's bound on documents per request. */
export const MAX_RERANK_DOCUMENTS = 1000;

export const rerankRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }),
    query: z.string().min(1),
    documents: z
      .array(z.union([z.string(), z.looseObject({ text: z.string() })], { error: 'must be a string or an object with a string `text`' }))
      .min(1)
      .max(MAX_RERANK_DOCUMENTS),
    top_n: z.number().int().min(1).nullable().optional(),
    return_documents: z.boolean().nullable().optional(),
  }),
);

export type RerankRequestBody = z.output<ReturnType<typeof rerankRequestSchema>>;
