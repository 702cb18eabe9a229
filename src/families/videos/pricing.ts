/**
 * Video prices: USD per second of video, by model (the `prices` map of the
 * config file, matched like every price) and resolution tier. `perSecond` is
 * one number, or an object by tier with an optional `"*"` for other tiers; a
 * model or tier without a price costs nothing.
 */
import type { PriceTable } from '../../billing/prices.js';
import type { Tier } from '../../tasks/video-contract.js';

export function pricePerSecond(prices: PriceTable, model: string, tier: Tier): number {
  const perSecond = prices.priceOf(model)?.perSecond;
  if (perSecond === undefined) return 0;
  if (typeof perSecond === 'number') return perSecond;
  return perSecond[tier] ?? perSecond['*'] ?? 0;
}

export function videoCost(prices: PriceTable, model: string, tier: Tier, seconds: number): number {
  // Rounded to a millionth of a dollar, so sums of charges and refunds stay exact enough to compare.
  return Math.round(pricePerSecond(prices, model, tier) * seconds * 1e6) / 1e6;
}
