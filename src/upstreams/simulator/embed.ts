/**
 * Simulated embeddings: a unit vector drawn from a hash of the model and the
 * text, so the same text always gets the same vector (and different texts
 * almost orthogonal ones). 1536 numbers unless the client asks for another
 * length. Input tokens are counted by the gateway's tokenizer.
 */
import { createHash } from 'node:crypto';
import type { EmbeddingRequest, EmbeddingResponse } from '../../core/embedding.js';
import { countTokens } from '../../core/tokens.js';

export const SIMULATED_DIMENSIONS = 1536;

export async function simulateEmbeddings(request: EmbeddingRequest): Promise<EmbeddingResponse> {
  const length = request.dimensions ?? SIMULATED_DIMENSIONS;
  const vectors = request.inputs.map((text) => unitVector(`${request.model}\u0000${text}`, length));
  const inputTokens = request.inputs.reduce((sum, text) => sum + countTokens(text), 0);
  return { vectors, inputTokens };
}

/** Numbers in [-1, 1) from SHA-256 blocks of the seed and a counter, scaled to length 1. */
function unitVector(seed: string, length: number): number[] {
  const vector = new Array<number>(length);
  let block = Buffer.alloc(0);
  for (let i = 0; i < length; i++) {
    const at = (i % 8) * 4;
    if (at === 0)
      block = createHash('sha256')
        .update(seed)
        .update(String(Math.floor(i / 8)))
        .digest();
    vector[i] = block.readUInt32BE(at) / 2 ** 31 - 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  for (let i = 0; i < length; i++) vector[i] /= norm;
  return vector;
}
