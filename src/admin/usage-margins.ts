/**
 * Spend beside upstream cost, as the usage report shows it: the margin is
 * what clients were charged less what the providers charged, over the
 * requests whose channel has a price for their model in its cost table
 * (null when there are none), and the requests without one are counted so
 * that a margin over part of the traffic says so.
 */
import type { ChannelUsageRow, UpstreamCostSums } from '../storage/request-log-types.js';

export interface Margin {
  upstreamCost: number;
  costedRequests: number;
  costedSpend: number;
  /** `costedSpend − upstreamCost`; null when no request's upstream cost is known. */
  margin: number | null;
  /** Requests whose upstream cost is unknown (no cost table, or no price in it for the model). */
  uncostedRequests: number;
}

/** A channel's (or the totals') margin; requests no channel served (`served` false) cost nothing upstream and are not counted as uncosted. */
export function marginOf(sums: UpstreamCostSums & { requests: number }, served = true): Margin {
  return {
    upstreamCost: sums.upstreamCost,
    costedRequests: sums.costedRequests,
    costedSpend: sums.costedSpend,
    margin: sums.costedRequests === 0 ? null : sums.costedSpend - sums.upstreamCost,
    uncostedRequests: served ? Math.max(0, sums.requests - sums.costedRequests) : 0,
  };
}

/** Every channel's row added up: the report's totals. */
export function totalsOf(rows: readonly ChannelUsageRow[]): Margin & { requests: number; cost: number } {
  const total = { requests: 0, cost: 0, upstreamCost: 0, costedRequests: 0, costedSpend: 0 };
  let uncosted = 0;
  for (const row of rows) {
    total.requests += row.requests;
    total.cost += row.cost;
    total.upstreamCost += row.upstreamCost;
    total.costedRequests += row.costedRequests;
    total.costedSpend += row.costedSpend;
    uncosted += marginOf(row, row.channelId !== null).uncostedRequests;
  }
  return { requests: total.requests, cost: total.cost, ...marginOf(total), uncostedRequests: uncosted };
}
