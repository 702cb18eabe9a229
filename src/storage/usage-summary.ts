/**
 * Usage totals per key and model (the admin API's and CLI's usage report),
 * per channel (spend beside upstream cost) and per team and user: rows read
 * from the log or from the hourly sums, grouped by key, model, channel, team
 * and user, added together.
 */
import { toNumber } from './columns.js';
import type { ChannelUsageRow, OwnerUsageRow, UsageReport, UsageSummaryRow } from './request-log-types.js';

/** One group of a read: a key, a model, the channel that served, and the key's team and user. */
export interface GroupedUsageRow extends UsageSummaryRow {
  channelId: string | null;
  teamId: string | null;
  userId: string | null;
}

/** The parts' rows added together per key and model, per channel, per team and per user. */
export function reportOf(parts: GroupedUsageRow[][]): UsageReport {
  const rows = parts.flat();
  return { byKey: mergeSummaries(rows), byChannel: mergeByChannel(rows), byTeam: mergeByOwner(rows, 'teamId'), byUser: mergeByOwner(rows, 'userId') };
}

/** One row per team or per user (null: requests of none), most spend first. */
function mergeByOwner(rows: readonly GroupedUsageRow[], owner: 'teamId' | 'userId'): OwnerUsageRow[] {
  const merged = new Map<string | null, OwnerUsageRow>();
  for (const row of rows) {
    const id = row[owner];
    let into = merged.get(id);
    if (!into) {
      into = { id, requests: 0, inputTokens: 0, outputTokens: 0, cost: 0 };
      merged.set(id, into);
    }
    into.requests += row.requests;
    into.inputTokens += row.inputTokens;
    into.outputTokens += row.outputTokens;
    into.cost += row.cost;
  }
  return [...merged.values()].sort((a, b) => b.cost - a.cost || String(a.id).localeCompare(String(b.id)));
}

/** One row per key and model, in a stable order. */
export function mergeSummaries(rows: readonly GroupedUsageRow[]): UsageSummaryRow[] {
  const merged = new Map<string, UsageSummaryRow>();
  for (const { channelId: _channel, teamId: _team, userId: _user, ...row } of rows) {
    const id = `${row.keyId ?? ''}\u0000${row.model}`;
    const into = merged.get(id);
    if (!into) {
      merged.set(id, row);
      continue;
    }
    into.requests += row.requests;
    into.inputTokens += row.inputTokens;
    into.outputTokens += row.outputTokens;
    into.cacheReadTokens += row.cacheReadTokens;
    into.cacheWriteTokens += row.cacheWriteTokens;
    into.cacheWrite1hTokens += row.cacheWrite1hTokens;
    into.cost += row.cost;
    addCosts(into, row);
    into.unpricedRequests += row.unpricedRequests;
  }
  return [...merged.values()].sort(bySummaryOrder);
}

/** One row per channel, most spend first. */
function mergeByChannel(rows: readonly GroupedUsageRow[]): ChannelUsageRow[] {
  const merged = new Map<string | null, ChannelUsageRow>();
  for (const row of rows) {
    const into = merged.get(row.channelId);
    if (!into) {
      const { channelId, requests, cost, upstreamCost, costedRequests, costedSpend } = row;
      merged.set(row.channelId, { channelId, requests, cost, upstreamCost, costedRequests, costedSpend });
      continue;
    }
    into.requests += row.requests;
    into.cost += row.cost;
    addCosts(into, row);
  }
  return [...merged.values()].sort((a, b) => b.cost - a.cost || String(a.channelId).localeCompare(String(b.channelId)));
}

function addCosts(into: GroupedUsageRow | UsageSummaryRow | ChannelUsageRow, row: UsageSummaryRow): void {
  into.upstreamCost += row.upstreamCost;
  into.costedRequests += row.costedRequests;
  into.costedSpend += row.costedSpend;
}

/** Engines disagree on where NULL sorts and on collation; sort the (small) result here. */
function bySummaryOrder(a: UsageSummaryRow, b: UsageSummaryRow): number {
  if (a.keyId !== b.keyId) {
    if (a.keyId === null) return -1;
    if (b.keyId === null) return 1;
    return a.keyId < b.keyId ? -1 : 1;
  }
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}

export function toSummary(row: {
  key_id: string | null;
  model: string;
  channel_id: string | null;
  team_id: string | null;
  user_id: string | null;
  requests: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cache_read_tokens: unknown;
  cache_write_tokens: unknown;
  cache_write_1h_tokens: unknown;
  cost: unknown;
  upstream_cost: unknown;
  costed_requests: unknown;
  costed_spend: unknown;
  unpriced_requests: unknown;
}): GroupedUsageRow {
  return {
    // The sums keep '' for requests without a key or channel (a unique key cannot hold NULL alike on both engines).
    keyId: row.key_id === '' ? null : row.key_id,
    model: row.model,
    channelId: row.channel_id === '' ? null : row.channel_id,
    teamId: row.team_id === '' ? null : row.team_id,
    userId: row.user_id === '' ? null : row.user_id,
    requests: toNumber(row.requests),
    inputTokens: toNumber(row.input_tokens),
    outputTokens: toNumber(row.output_tokens),
    cacheReadTokens: toNumber(row.cache_read_tokens),
    cacheWriteTokens: toNumber(row.cache_write_tokens),
    cacheWrite1hTokens: toNumber(row.cache_write_1h_tokens),
    cost: toNumber(row.cost),
    upstreamCost: toNumber(row.upstream_cost),
    costedRequests: toNumber(row.costed_requests),
    costedSpend: toNumber(row.costed_spend),
    unpricedRequests: toNumber(row.unpriced_requests),
  };
}
