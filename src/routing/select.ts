/**
 * Channel choice: among enabled, healthy channels serving the model, the
 * highest priority tier first, weighted random within a tier. The result is
 * the ordered list of channels to try; the first is the pick, the rest are the
 * failover order.
 */
import { servesModel, type Channel } from '../core/channel.js';
import { isFallbackChannel } from './channel-registry.js';

/** Orders one tier by weighted random sampling without replacement. */
function weightedOrder(tier: Channel[], random: () => number): Channel[] {
  const pool = tier.slice();
  const ordered: Channel[] = [];
  while (pool.length > 0) {
    // A weight of 0 still gets a small share, so a channel is never unreachable by failover.
    const weights = pool.map((channel) => Math.max(channel.weight, 0) || 0.001);
    let roll = random() * weights.reduce((sum, weight) => sum + weight, 0);
    let index = 0;
    while (index < pool.length - 1 && roll >= weights[index]) {
      roll -= weights[index];
      index++;
    }
    ordered.push(pool[index]);
    pool.splice(index, 1);
  }
  return ordered;
}

export interface SelectOptions {
  isHealthy: (channel: Channel) => boolean;
  /** Restricts the choice to channel types that can serve this kind of work. */
  accepts?: (channel: Channel) => boolean;
  random?: () => number;
}

/**
 * Returns the channels to try, in order. Unhealthy channels (cooling down)
 * come last, so they are used only when nothing else is left. The built-in
 * simulator is a candidate only when no other enabled channel serves the
 * model: it never stands in for a configured channel that fails.
 */
export function orderCandidates(channels: readonly Channel[], model: string, options: SelectOptions): Channel[] {
  // One pass, one array in the common case (a single serving channel): this runs on every request.
  const configured: Channel[] = [];
  let fallback: Channel[] | undefined;
  for (const channel of channels) {
    if (!channel.enabled || !servesModel(channel, model) || !(options.accepts?.(channel) ?? true)) continue;
    if (isFallbackChannel(channel)) (fallback ??= []).push(channel);
    else configured.push(channel);
  }
  const serving = configured.length > 0 ? configured : (fallback ?? configured);
  if (serving.length <= 1) return serving;
  const random = options.random ?? Math.random;
  const healthy = serving.filter(options.isHealthy);
  const coolingDown = serving.filter((channel) => !options.isHealthy(channel));
  return [...byPriority(healthy, random), ...byPriority(coolingDown, random)];
}

function byPriority(channels: Channel[], random: () => number): Channel[] {
  if (channels.length <= 1) return channels;
  const tiers = new Map<number, Channel[]>();
  for (const channel of channels) {
    const tier = tiers.get(channel.priority);
    if (tier) tier.push(channel);
    else tiers.set(channel.priority, [channel]);
  }
  return [...tiers.keys()].sort((a, b) => b - a).flatMap((priority) => weightedOrder(tiers.get(priority)!, random));
}
