/**
 * Usage totals per key and model (the admin API's and CLI's usage report):
 * rows read from the log or from the hourly sums, added together.
 */
import { toNumber } from './columns.js';
import type { UsageSummaryRow } from './types.js';

/** One row per key and model, the parts added together, in a stable order. */
export function mergeSummaries(parts: UsageSummaryRow[][]): UsageSummaryRow[] {
  const merged = new Map<string, UsageSummaryRow>();
  for (const row of parts.flat()) {
    const id = `${row.keyId ?? ''}\u0000${row.model}`;
    const into = merged.get(id);
    if (!into) {
      merged.set(id, { ...row });
      continue;
    }
    into.requests += row.requests;
    into.inputTokens += row.inputTokens;
    into.outputTokens += row.outputTokens;
    into.cacheReadTokens += row.cacheReadTokens;
    into.cacheWriteTokens += row.cacheWriteTokens;
    into.cacheWrite1hTokens += row.cacheWrite1hTokens;
    into.cost += row.cost;
    into.unpricedRequests += row.unpricedRequests;
  }
  return [...merged.values()].sort(bySummaryOrder);
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
  requests: unknown;
  input_tokens: unknown;
  output_tokens: unknown;
  cache_read_tokens: unknown;
  cache_write_tokens: unknown;
  cache_write_1h_tokens: unknown;
  cost: unknown;
  unpriced_requests: unknown;
}): UsageSummaryRow {
  return {
    // The sums keep '' for requests without a key (a unique key cannot hold NULL alike on both engines).
    keyId: row.key_id === '' ? null : row.key_id,
    model: row.model,
    requests: toNumber(row.requests),
    inputTokens: toNumber(row.input_tokens),
    outputTokens: toNumber(row.output_tokens),
    cacheReadTokens: toNumber(row.cache_read_tokens),
    cacheWriteTokens: toNumber(row.cache_write_tokens),
    cacheWrite1hTokens: toNumber(row.cache_write_1h_tokens),
    cost: toNumber(row.cost),
    unpricedRequests: toNumber(row.unpriced_requests),
  };
}
