/** The performance targets, checked per family against one run's measurements. */
import { FAMILIES } from './targets.mjs';

/** Measured req/s (wrk when it ran, else autocannon), and the one-core ceiling implied by the server's CPU time per request. */
function throughputOf(results, key) {
  const wrk = results.throughput.wrk?.[key];
  const ac = results.throughput.autocannon[key];
  const row = wrk ?? ac;
  if (!row) return { rps: NaN, note: '' };
  const cpuUs = row.serverCpuUsPerRequest;
  const ceiling = Number.isFinite(cpuUs) && cpuUs > 0 ? `; ${cpuUs} µs CPU/req ≈ ${Math.round(1e6 / cpuUs)} req/s per core` : '';
  return { rps: row.rps, note: ` (${wrk ? 'wrk' : 'autocannon'}${ceiling})` };
}

/**
 * The same goals for every family: added p50 ≤ 0.3 ms native (p99 ≤ 3 ms) and
 * ≤ 0.5 ms translated; ≥ 5,000 req/s native and ≥ 3,000 translated on the
 * gateway's one core; added stream TTFB ≤ 1 ms. Then memory and cold start.
 */
export function evaluateTargets(results) {
  const { added, coldStart, memory } = results;
  const rows = [];
  const atMost = (name, measured, limit, unit) =>
    rows.push({ name, goal: `≤ ${limit} ${unit}`, measured: `${measured} ${unit}`, met: measured <= limit });
  const atLeast = (name, measured, limit, unit, note = '') =>
    rows.push({ name, goal: `≥ ${limit} ${unit}`, measured: `${measured} ${unit}${note}`, met: measured >= limit });

  for (const family of results.meta.families) {
    const { native, translated, nativeName } = FAMILIES[family];
    atMost(`${family}: added p50, ${nativeName}`, added[native]?.p50Us, 300, 'µs');
    atMost(`${family}: added p99, ${nativeName}`, added[native]?.p99Us, 3000, 'µs');
    atMost(`${family}: added p50, translated`, added[translated]?.p50Us, 500, 'µs');
    const nativeRate = throughputOf(results, native);
    atLeast(`${family}: throughput c=50, ${nativeName}`, nativeRate.rps, 5000, 'req/s', nativeRate.note);
    const translatedRate = throughputOf(results, translated);
    atLeast(`${family}: throughput c=50, translated`, translatedRate.rps, 3000, 'req/s', translatedRate.note);
    atMost(`${family}: added stream TTFB p50, ${nativeName}`, added[`${native}-stream`]?.ttfbP50Us, 1000, 'µs');
    atMost(`${family}: added stream TTFB p50, translated`, added[`${translated}-stream`]?.ttfbP50Us, 1000, 'µs');
  }
  atMost('RSS after a 20k-request c=50 load run', memory.after20k?.rssMb, 100, 'MB');
  atMost('cold start (spawn → /healthz 200), median', coldStart.medianHealthzMs, 400, 'ms');
  for (const row of rows) if (row.measured.startsWith('undefined') || row.measured.startsWith('NaN')) row.met = false;
  return rows;
}
