/**
 * The internal representation of an embedding request, shared by the two
 * client dialects that ask for embeddings (OpenAI `/v1/embeddings`, Gemini
 * `:embedContent`/`:batchEmbedContents`) and every upstream that computes them.
 */

export interface EmbeddingRequest {
  /** The model name as the client sent it (before channel model mapping). */
  model: string;
  /** One text per vector, in order. */
  inputs: string[];
  /** Vector length the client asked for (OpenAI `dimensions`, Gemini `outputDimensionality`). */
  dimensions?: number;
  /** What the vectors are for (Gemini `taskType`); upstreams without such a field ignore it. */
  taskType?: string;
  /** A title for retrieval documents (Gemini `title`). */
  title?: string;
}

export interface EmbeddingResponse {
  /** One vector per input, in order. */
  vectors: number[][];
  /** Input tokens the upstream reported; undefined when it reports none (the gateway counts). */
  inputTokens?: number;
}
