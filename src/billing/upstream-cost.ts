/**
 * What a request cost the gateway: the serving channel's cost table priced
 * by the one pricing rule, so the margin on a request is its charge less this.
 */
import type { Usage } from '../core/chat.js';
import type { ChannelCosts } from '../config/channel-costs.js';
import { costOf } from './cost.js';

/** The upstream cost of `usage`, or null when the channel has no cost table or no price in it for the model. */
export function upstreamCostOf(costs: ChannelCosts | undefined, model: string, upstreamModel: string | null | undefined, usage: Usage): number | null {
  const price = costs?.priceFor(upstreamModel, model);
  return price ? costOf(price, usage) : null;
}
