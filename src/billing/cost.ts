/**
 * The one pricing rule: what a request's usage costs at a model's price.
 * Usage counts are disjoint (input excludes cached tokens; one-hour cache
 * writes are part of cache writes; reasoning is part of output), so each
 * token is priced once.
 */
import type { Usage } from '../core/chat.js';
import type { ModelPrice, TokenPrices } from '../config/price-schema.js';

/** The prompt's size as long-context tiers measure it: every token the model read. */
export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** The token prices that apply to a prompt of this size: the base ones, with the highest tier it is over laid on them. */
export function pricesFor(price: ModelPrice, prompt: number): TokenPrices {
  const tiers = price.tiers;
  if (!tiers || tiers.length === 0) return price;
  let tier: (typeof tiers)[number] | undefined;
  for (const candidate of tiers) if (prompt > candidate.above) tier = candidate;
  if (!tier) return price;
  const laid: TokenPrices = { ...price };
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'reasoning'] as const) if (tier[field] !== undefined) laid[field] = tier[field];
  return laid;
}

/** Cost in USD of `usage` at `price`. */
export function costOf(price: ModelPrice, usage: Usage): number {
  const p = pricesFor(price, promptTokens(usage));
  const input = p.input ?? 0;
  const output = p.output ?? 0;
  const cacheWrite = p.cacheWrite ?? input;
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, usage.cacheWriteTokens);
  const reasoning = p.reasoning === undefined ? 0 : Math.min(usage.reasoningTokens ?? 0, usage.outputTokens);
  const perMillion =
    usage.inputTokens * input +
    (usage.outputTokens - reasoning) * output +
    reasoning * (p.reasoning ?? output) +
    usage.cacheReadTokens * (p.cacheRead ?? input) +
    (usage.cacheWriteTokens - oneHour) * cacheWrite +
    oneHour * (p.cacheWrite1h ?? cacheWrite);
  return perMillion / 1_000_000;
}
