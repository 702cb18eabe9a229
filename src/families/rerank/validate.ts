/**
 * Reads a rerank body (src/dialects/rerank/schema-request.ts) into the
 * internal request: each document's text, `top_n`, and whether the answer
 * repeats the documents. A bad field is a 400 naming it.
 */
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { issueError } from '../../dialects/openai/validate-issue.js';
import { rerankRequestSchema, type RerankRequestBody } from '../../dialects/rerank/schema-request.js';
import type { RerankRequest } from '../../dialects/rerank/wire.js';

export interface ParsedRerank {
  request: RerankRequest;
  /** The answer carries each result's document (`{ text }`); Cohere's default, off. */
  returnDocuments: boolean;
}

export function parseRerankRequest(body: unknown): ParsedRerank {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(rerankRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  const parsed: RerankRequestBody = result.data;
  const request: RerankRequest = {
    model: parsed.model,
    query: parsed.query,
    documents: parsed.documents.map((document) => (typeof document === 'string' ? document : document.text)),
  };
  if (parsed.top_n != null) request.topN = parsed.top_n;
  return { request, returnDocuments: parsed.return_documents === true };
}
