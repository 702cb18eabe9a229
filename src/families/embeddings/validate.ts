/**
 * Validates an OpenAI `/v1/embeddings` body as the vendor does: `model`,
 * `input` (a string, an array of strings, an array of token ids, or an array
 * of such arrays; none empty, at most 2048 entries), `encoding_format`
 * (`float` or `base64`), `dimensions` (a positive integer). Other fields
 * (`user`, extensions) are kept for a native upstream.
 */
import { z } from 'zod';
import { GatewayError } from '../../core/errors.js';
import { parseAsIs } from '../../core/accept-as-is.js';
import { issueError } from '../../dialects/openai/validate-issue.js';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

const MAX_INPUTS = 2048;
const tokens = builtOnce(() => z.array(z.number().int().min(0)).min(1));

export const embeddingsRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }),
    input: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(MAX_INPUTS), tokens(), z.array(tokens()).min(1).max(MAX_INPUTS)]),
    encoding_format: z.enum(['float', 'base64']).nullable().optional(),
    dimensions: z.number().int().min(1).nullable().optional(),
    user: z.string().nullable().optional(),
  }),
);

export type EmbeddingsRequest = z.output<ReturnType<typeof embeddingsRequestSchema>>;

export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'request body must be a JSON object');
  }
  const result = parseAsIs(embeddingsRequestSchema(), body, { reportInput: true });
  if (!result.success) throw issueError(result.error.issues);
  return result.data;
}

/** The texts to embed, or undefined when the input is token ids (only a native upstream reads those). */
export function textInputs(input: EmbeddingsRequest['input']): string[] | undefined {
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'string')) return input as string[];
  return undefined;
}

/** Token ids per input, for counting token-array inputs. */
export function tokenInputCount(input: EmbeddingsRequest['input']): number {
  if (typeof input === 'string' || input.every((item) => typeof item === 'string')) return 0;
  return (input as Array<number | number[]>).reduce<number>((sum, item) => sum + (Array.isArray(item) ? item.length : 1), 0);
}
