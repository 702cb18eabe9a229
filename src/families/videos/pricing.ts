/**
 * Video prices: USD per second of video, by model (the `prices` map of the
 * config file, matched like every price) and resolution tier. `perSecond` is
 * one number, or an object by tier with an optional `"*"` for other tiers; a
 * model or tier without a price costs nothing.
 */
import type { ModelPrice, PriceTable } from '../../billing/prices.js';
import type { Tier } from '../../tasks/video-contract.js';

export function pricePerSecond(prices: PriceTable, model: string, tier: Tier): number {
  return perSecondAt(prices.priceOf(model), tier);
}

/** The per-second price of a tier at one price entry (the client's, or a channel's cost table's). */
function perSecondAt(price: ModelPrice | undefined, tier: Tier): number {
  const perSecond = price?.perSecond;
  if (perSecond === undefined) return 0;
  if (typeof perSecond === 'number') return perSecond;
  return perSecond[tier] ?? perSecond['*'] ?? 0;
}

export function videoCost(prices: PriceTable, model: string, tier: Tier, seconds: number): number {
  return videoCostAt(prices.priceOf(model), tier, seconds);
}

export function videoCostAt(price: ModelPrice | undefined, tier: Tier, seconds: number): number {
  // Rounded to a millionth of a dollar, so sums of charges and refunds stay exact enough to compare.
  return Math.round(perSecondAt(price, tier) * seconds * 1e6) / 1e6;
}
