/**
 * What a request may cost, held against its key's quota before routing: the
 * prompt at about four bytes a token, and the output limit the client
 * declared (or a default), priced like the settled request will be.
 */
import type { PriceTable } from '../prices.js';

/** Output assumed when the client declared no limit. */
const DEFAULT_OUTPUT_TOKENS = 4096;

/** The output limit fields of the dialects, where a client declares one. */
export function declaredOutputLimit(body: Record<string, unknown>): number | undefined {
  const config = body.generationConfig as Record<string, unknown> | undefined;
  for (const value of [body.max_tokens, body.max_output_tokens, body.max_completion_tokens, config?.maxOutputTokens]) {
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  }
  return undefined;
}

export function estimateCost(prices: PriceTable, model: string, inputBytes: number, outputTokens = DEFAULT_OUTPUT_TOKENS): number {
  return prices.cost(model, { inputTokens: Math.ceil(inputBytes / 4), outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });
}

/** The tokens a request may use, held against token budgets: the prompt at four bytes a token and the output limit. */
export function estimateTokens(inputBytes: number, outputTokens = DEFAULT_OUTPUT_TOKENS): number {
  return Math.ceil(inputBytes / 4) + outputTokens;
}
