/**
 * Upper bounds (ms) of the latency histograms kept per minute in
 * `usage_minutes` and `usage_hours` (lat_0… for the whole request, ttft_0… for the first byte);
 * the last bucket is unbounded. The columns are named by position, so changing
 * this list needs a migration.
 */
export const LATENCY_BOUNDS_MS = [50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000, 40000, 80000] as const;

/** Histogram buckets: one per bound plus the unbounded last one. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function bucketOf(ms: number): number {
  for (let index = 0; index < LATENCY_BOUNDS_MS.length; index++) if (ms <= LATENCY_BOUNDS_MS[index]) return index;
  return LATENCY_BOUNDS_MS.length;
}

/** A quantile (0..1) read off bucket counts, interpolated linearly inside its bucket; null when empty. */
export function quantileOf(counts: readonly number[], quantile: number): number | null {
  let total = 0;
  for (const count of counts) total += count;
  if (total === 0) return null;
  const rank = quantile * total;
  let seen = 0;
  for (let index = 0; index < counts.length; index++) {
    const count = counts[index];
    if (count === 0 || seen + count < rank) {
      seen += count;
      continue;
    }
    const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1];
    // The unbounded bucket has no upper edge: its lower edge is the honest answer.
    if (index === LATENCY_BOUNDS_MS.length) return lower;
    const upper = LATENCY_BOUNDS_MS[index];
    return Math.round(lower + ((rank - seen) / count) * (upper - lower));
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}

export const latencyColumns = Array.from({ length: LATENCY_BUCKETS }, (_, index) => `lat_${index}`);
export const firstByteColumns = Array.from({ length: LATENCY_BUCKETS }, (_, index) => `ttft_${index}`);
