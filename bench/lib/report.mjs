/** Turns one run's measurements into the target verdicts and a markdown report. */

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Gateway minus direct, per serial statistic, for every target that has a baseline. */
export function addedLatency(targets, serial) {
  const added = {};
  for (const target of targets) {
    if (!target.baseline) continue;
    const gateway = serial[target.key];
    const direct = serial[target.baseline];
    if (!gateway || !direct) continue;
    added[target.key] = {
      p50Us: gateway.p50Us - direct.p50Us,
      p99Us: gateway.p99Us - direct.p99Us,
      ttfbP50Us: gateway.ttfbP50Us - direct.ttfbP50Us,
    };
  }
  return added;
}

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

/** The issue's targets, each with what was measured and whether it was met. */
export function evaluateTargets(results) {
  const { added, coldStart, memory } = results;
  const rows = [];
  const atMost = (name, measured, limit, unit) =>
    rows.push({ name, goal: `≤ ${limit} ${unit}`, measured: `${measured} ${unit}`, met: measured <= limit });
  const atLeast = (name, measured, limit, unit, note = '') =>
    rows.push({ name, goal: `≥ ${limit} ${unit}`, measured: `${measured} ${unit}${note}`, met: measured >= limit });

  atMost('added p50, pass-through', added['gateway-pass']?.p50Us, 300, 'µs');
  atMost('added p99, pass-through', added['gateway-pass']?.p99Us, 3000, 'µs');
  atMost('added p50, translated', added['gateway-translated']?.p50Us, 500, 'µs');
  const pass = throughputOf(results, 'gateway-pass');
  atLeast('throughput c=50, pass-through', pass.rps, 5000, 'req/s', pass.note);
  const translated = throughputOf(results, 'gateway-translated');
  atLeast('throughput c=50, translated', translated.rps, 3000, 'req/s', translated.note);
  atMost('added stream TTFB p50, pass-through', added['gateway-pass-stream']?.ttfbP50Us, 1000, 'µs');
  atMost('added stream TTFB p50, translated', added['gateway-translated-stream']?.ttfbP50Us, 1000, 'µs');
  atMost('RSS after a 20k-request c=50 load run', memory.after20k.rssMb, 100, 'MB');
  atMost('cold start (spawn → /healthz 200), median', coldStart.medianHealthzMs, 400, 'ms');
  for (const row of rows) if (row.measured.startsWith('undefined') || row.measured.startsWith('NaN')) row.met = false;
  return rows;
}

const fmt = (value) => (Number.isFinite(value) ? value.toLocaleString('en-US') : '–');
/** Other processes' share of the machine's CPU during the kept attempt (and, after a retry, every attempt). */
const load = (row) => {
  if (!row || row.otherCpuPct === undefined || row.otherCpuPct === null) return '–';
  const attempts = row.otherCpuPctAttempts ?? [];
  return attempts.length > 1 ? `${row.otherCpuPct} (tries: ${attempts.join(', ')})` : String(row.otherCpuPct);
};
const perCore = (row) =>
  row && Number.isFinite(row.serverCpuUsPerRequest) && row.serverCpuUsPerRequest > 0
    ? `${row.serverCpuUsPerRequest} (${fmt(Math.round(1e6 / row.serverCpuUsPerRequest))})`
    : '–';
const signed = (value) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toLocaleString('en-US')}` : '–');

export function renderMarkdown(results, targets) {
  const { meta, serial, added, throughput, memory, coldStart } = results;
  const out = [];
  out.push(`## Switchyard benchmark, ${meta.date}`);
  out.push('');
  out.push(
    `Node ${meta.node}, ${meta.cpus} × ${meta.cpuModel}, pinned: ${meta.pinned ? 'gateway core 0, upstream + load core 1' : 'no (taskset missing)'}, ` +
      `load average before ${meta.loadAverageBefore.join(' / ')}, commit ${meta.commit ?? 'unknown'}.`,
  );
  out.push('');
  out.push(`### Serial keep-alive latency (${meta.settings.serialCount} timed requests after ${meta.settings.warmup} warm-up), µs`);
  out.push('');
  out.push('| target | p50 | p99 | TTFB p50 | added p50 | added p99 | added TTFB p50 | errors | other CPU % |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const target of results.targets) {
    const row = serial[target.key];
    if (!row) continue;
    const plus = added[target.key];
    out.push(
      `| ${target.label} | ${fmt(row.p50Us)} | ${fmt(row.p99Us)} | ${fmt(row.ttfbP50Us)} | ${signed(plus?.p50Us)} | ${signed(plus?.p99Us)} | ${signed(plus?.ttfbP50Us)} | ${row.errors} | ${load(row)} |`,
    );
  }
  out.push('');
  out.push(`### Throughput at c=${meta.settings.connections} (autocannon: ${fmt(meta.settings.amount)} requests; wrk: ${meta.settings.wrkSeconds} s)`);
  out.push('');
  out.push('| target | autocannon req/s | p50 / p99 ms | server CPU µs/req (→ req/s per core) | wrk req/s | p50 / p99 ms | server CPU µs/req (→ req/s per core) | non-2xx + errors | other CPU % (ac / wrk) |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const target of results.targets) {
    const ac = throughput.autocannon[target.key];
    const wrk = throughput.wrk?.[target.key];
    if (!ac && !wrk) continue;
    const failures = (ac ? ac.non2xx + ac.errors + ac.timeouts : 0) + (wrk ? wrk.non2xx + wrk.errors : 0);
    out.push(
      `| ${target.label} | ${fmt(ac?.rps)} | ${ac ? `${fmt(ac.p50Ms)} / ${fmt(ac.p99Ms)}` : '–'} | ${perCore(ac)} | ${fmt(wrk?.rps)} | ${wrk ? `${fmt(wrk.p50Ms)} / ${fmt(wrk.p99Ms)}` : '–'} | ${perCore(wrk)} | ${failures} | ${load(ac)} / ${load(wrk)} |`,
    );
  }
  out.push('');
  out.push(
    `Gateway memory (RSS): idle ${memory.idle.rssMb} MB` +
      (memory.afterPrewarm ? `, after pre-warm ${memory.afterPrewarm.rssMb} MB` : '') +
      `, after serial runs ${memory.afterSerial.rssMb} MB` +
      (memory.past20kRequests ? `, first reading past 20k requests ${memory.past20kRequests.rssMb} MB (${fmt(memory.past20kRequests.requestsServed)} served)` : '') +
      `, after the first 20k-request c=${meta.settings.connections} load run ${memory.after20k.rssMb} MB ` +
      `(${fmt(memory.after20k.requestsServed)} requests served by then), at the end ${memory.final.rssMb} MB, peak ${memory.final.peakRssMb} MB ` +
      `(${fmt(memory.gatewayRequests)} requests served).`,
  );
  out.push(
    `Cold start, median of ${coldStart.runs.length}: spawn → /healthz 200 ${coldStart.medianHealthzMs} ms, ` +
      `spawn → first chat 200 ${coldStart.medianChatMs} ms (runs: ${coldStart.runs.map((r) => `${r.healthzMs}/${r.chatMs}`).join(', ')}; ` +
      `other CPU ${coldStart.otherCpuPct ?? '–'} %).`,
  );
  out.push('');
  out.push('### Targets');
  out.push('');
  out.push('| target | goal | measured | met |');
  out.push('|---|---|---|---|');
  for (const row of targets) out.push(`| ${row.name} | ${row.goal} | ${row.measured} | ${row.met ? 'yes' : '**no**'} |`);
  out.push('');
  return out.join('\n');
}
