/**
 * Per-model prices in USD per million tokens, from the config file. A key's
 * quota is in the same unit (USD). Lookup: the exact model, then the longest
 * matching `prefix*` pattern, then `*`; a model with no price costs nothing.
 */
import { ModelPatternTable } from '../core/model-pattern.js';
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
  private readonly table: ModelPatternTable<ModelPrice>;

  constructor(private readonly prices: Record<string, ModelPrice> = {}) {
    this.table = new ModelPatternTable(prices);
  }

  /** Every price as configured, by model name or pattern. */
  entries(): Array<[string, ModelPrice]> {
    return Object.entries(this.prices);
  }

  priceOf(model: string): ModelPrice | undefined {
    return this.table.get(model);
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
