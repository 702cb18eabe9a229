/**
 * Video prices: USD per second of video, by model (the `prices` map of the
 * config file, matched like every price) and resolution tier. `perSecond` is
 * one number, or an object by tier with an optional `"*"` for other tiers; a
 * model or tier without a price is unpriced (undefined): it costs nothing and
 * is logged as such.
 */
import type { ModelPrice, PriceTable } from '../../billing/prices.js';
import type { Tier } from '../../tasks/video-contract.js';

export function pricePerSecond(prices: PriceTable, model: string, tier: Tier): number | undefined {
  return perSecondAt(prices.priceOf(model), tier);
}

/** The per-second price of a tier at one price entry (the client's, or a channel's cost table's); undefined when it has none. */
function perSecondAt(price: ModelPrice | undefined, tier: Tier): number | undefined {
  const perSecond = price?.perSecond;
  if (perSecond === undefined || typeof perSecond === 'number') return perSecond;
  return perSecond[tier] ?? perSecond['*'];
}

export function videoCost(prices: PriceTable, model: string, tier: Tier, seconds: number): number | undefined {
  return videoCostAt(prices.priceOf(model), tier, seconds);
}

export function videoCostAt(price: ModelPrice | undefined, tier: Tier, seconds: number): number | undefined {
  const perSecond = perSecondAt(price, tier);
  // Rounded to a millionth of a dollar, so sums of charges and refunds stay exact enough to compare.
  return perSecond === undefined ? undefined : Math.round(perSecond * seconds * 1e6) / 1e6;
}
