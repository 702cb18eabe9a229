/**
 * Per-model prices in USD per million tokens, from the config file. A key's
 * quota is in the same unit (USD). Lookup: the exact model, then the longest
 * matching `prefix*` pattern, then `*`; a model with no price costs nothing.
 */
import type { Usage } from '../core/chat.js';

export interface ModelPrice {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** USD per call, for work priced per task (image actions: `ig_<action>`). */
  perCall?: number;
  /** USD per second of video: one number, or by resolution tier (`480P`, `720P`, `1080P`, `*`). */
  perSecond?: number | Record<string, number>;
}

export class PriceTable {
  private readonly exact = new Map<string, ModelPrice>();
  private readonly prefixes: Array<[string, ModelPrice]> = [];
  private fallback?: ModelPrice;

  constructor(prices: Record<string, ModelPrice> = {}) {
    for (const [pattern, price] of Object.entries(prices)) {
      if (pattern === '*') this.fallback = price;
      else if (pattern.endsWith('*')) this.prefixes.push([pattern.slice(0, -1), price]);
      else this.exact.set(pattern, price);
    }
    this.prefixes.sort((a, b) => b[0].length - a[0].length);
  }

  priceOf(model: string): ModelPrice | undefined {
    return this.exact.get(model) ?? this.prefixes.find(([prefix]) => model.startsWith(prefix))?.[1] ?? this.fallback;
  }

  /** Cost in USD. Cache reads and writes fall back to the input price when not set. */
  cost(model: string, usage: Usage): number {
    const price = this.priceOf(model);
    if (!price) return 0;
    const input = price.input ?? 0;
    const perMillion =
      usage.inputTokens * input +
      usage.outputTokens * (price.output ?? 0) +
      usage.cacheReadTokens * (price.cacheRead ?? input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? input);
    return perMillion / 1_000_000;
  }
}
