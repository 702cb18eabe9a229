/**
 * The OpenAI embeddings list. `base64` is what the official clients ask for
 * by default: the vector's float32 values, little-endian, in base64.
 */
import type { EmbeddingResponse } from '../../core/embedding.js';

export function renderEmbeddings(response: EmbeddingResponse, options: { model: string; base64: boolean; inputTokens: number }) {
  return {
    object: 'list',
    data: response.vectors.map((vector, index) => ({ object: 'embedding', index, embedding: options.base64 ? toBase64(vector) : vector })),
    model: options.model,
    usage: { prompt_tokens: options.inputTokens, total_tokens: options.inputTokens },
  };
}

function toBase64(vector: number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}
