/** Turns one run's measurements and verdicts into a markdown report (tables per family). */
import { FAMILIES, targetsOfFamily } from './targets.mjs';

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

const fmt = (value) => (Number.isFinite(value) ? value.toLocaleString('en-US') : '–');
/** Other processes' share of the machine's CPU during the kept attempt (and, after a retry, every attempt). */
const load = (row) => {
  if (!row || row.otherCpuPct === undefined || row.otherCpuPct === null) return '–';
  const attempts = row.otherCpuPctAttempts ?? [];
  return attempts.length > 1 ? `${row.otherCpuPct} (tries: ${attempts.join(', ')})` : String(row.otherCpuPct);
};
const perCore = (row) =>
  row && Number.isFinite(row.serverCpuUsPerRequest) && row.serverCpuUsPerRequest > 0 ? `${row.serverCpuUsPerRequest} (${fmt(Math.round(1e6 / row.serverCpuUsPerRequest))})` : '–';
const signed = (value) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toLocaleString('en-US')}` : '–');

/** The store: true row against its store: false twin (family E), when both were measured. */
function storingCost(results) {
  const stored = results.serial['gateway-resp-native-store'];
  const relayed = results.serial['gateway-resp-native'];
  if (!stored || !relayed) return undefined;
  const acStored = results.throughput.autocannon['gateway-resp-native-store'];
  const acRelayed = results.throughput.autocannon['gateway-resp-native'];
  const cpu =
    acStored && acRelayed
      ? `, ${signed(acStored.serverCpuUsPerRequest - acRelayed.serverCpuUsPerRequest)} µs of gateway CPU per request at c=50 (${fmt(acStored.rps)} against ${fmt(acRelayed.rps)} req/s, autocannon)`
      : '';
  return `Storing the answer (E, native, the default \`store: true\`) costs ${signed(stored.p50Us - relayed.p50Us)} µs serial p50${cpu}, over \`store: false\`.`;
}

function serialTable(out, results, targets) {
  const { serial, added } = results;
  out.push('| target | p50 | p99 | TTFB p50 | added p50 | added p99 | added TTFB p50 | errors | other CPU % |');
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const target of targets) {
    const row = serial[target.key];
    if (!row) continue;
    const plus = added[target.key];
    out.push(
      `| ${target.label} | ${fmt(row.p50Us)} | ${fmt(row.p99Us)} | ${fmt(row.ttfbP50Us)} | ${signed(plus?.p50Us)} | ${signed(plus?.p99Us)} | ${signed(plus?.ttfbP50Us)} | ${row.errors} | ${load(row)} |`,
    );
  }
}

function throughputTable(out, results, targets) {
  const { throughput } = results;
  out.push(
    '| target | autocannon req/s | p50 / p99 ms | server CPU µs/req (→ req/s per core) | wrk req/s | p50 / p99 ms | server CPU µs/req (→ req/s per core) | non-2xx + errors | other CPU % (ac / wrk) |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const target of targets) {
    const ac = throughput.autocannon[target.key];
    const wrk = throughput.wrk?.[target.key];
    if (!ac && !wrk) continue;
    const failures = (ac ? ac.non2xx + ac.errors + ac.timeouts : 0) + (wrk ? wrk.non2xx + wrk.errors : 0);
    out.push(
      `| ${target.label} | ${fmt(ac?.rps)} | ${ac ? `${fmt(ac.p50Ms)} / ${fmt(ac.p99Ms)}` : '–'} | ${perCore(ac)} | ${fmt(wrk?.rps)} | ${wrk ? `${fmt(wrk.p50Ms)} / ${fmt(wrk.p99Ms)}` : '–'} | ${perCore(wrk)} | ${failures} | ${load(ac)} / ${load(wrk)} |`,
    );
  }
}

/** The hard case as a markdown table, each gateway row with its ratio to the floor of the same rounds. */
export function renderHardCase(hardCase, node) {
  const floor = Object.values(hardCase.rows)[0];
  const out = [
    `One core, c=${hardCase.connections}, the load generator on the other core (Node ${node}; ${hardCase.tool}, ${hardCase.rounds} rounds of ${hardCase.seconds} s per server after a ${hardCase.warmupSeconds} s warm-up, servers alternating; the fake upstream shares the load generator's core). A ratio of req/s is what the servers cost only when the server uses its whole core (server % ≈ 100); a load side near 100 % held the server back. "other CPU %": the share of the machine other processes took (the highest of the rounds).`,
    '',
    '| server | req/s | × floor | CPU µs/req (kernel) | × floor by CPU | p50 / p99 ms | server % of a core | load side % of a core | other CPU % | req/s per round |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of Object.values(hardCase.rows)) {
    const ratio = row === floor ? '1' : (row.rps / floor.rps).toFixed(2);
    const cpuRatio = row === floor ? '1' : (floor.cpuUsPerRequest / row.cpuUsPerRequest).toFixed(2);
    out.push(
      `| ${row.label} | ${fmt(row.rps)} | ${ratio} | ${row.cpuUsPerRequest} (${row.sysUsPerRequest}) | ${cpuRatio} | ${row.p50Ms} / ${row.p99Ms} | ${row.serverPct} | ${row.loadPct} | ${row.otherCpuPct} | ${row.rpsPerRound.map(fmt).join(', ')} |`,
    );
  }
  return out.join('\n');
}

export function renderMarkdown(results, verdicts) {
  const { meta, memory, coldStart } = results;
  const out = [];
  const perFamily = (render) => {
    for (const family of meta.families) {
      out.push(`#### ${FAMILIES[family].title}`);
      out.push('');
      render(out, results, targetsOfFamily(results.targets, family));
      out.push('');
    }
  };
  out.push(`## Switchyard benchmark, ${meta.date}`);
  out.push('');
  out.push(
    `Node ${meta.node}${meta.loadNode && meta.loadNode !== meta.node ? ` (load and fake upstream on ${meta.loadNode})` : ''}, ${meta.cpus} × ${meta.cpuModel}, pinned: ${meta.pinned ? 'gateway core 0, upstream + load core 1' : 'no (taskset missing)'}, ` +
      `load average before ${meta.loadAverageBefore.join(' / ')}, commit ${meta.commit ?? 'unknown'}, families ${meta.families.join(', ')}, ` +
      `${meta.durationS ?? '–'} s in all${meta.entryOverride ? `, gateway bundle ${meta.entry} (BENCH_ENTRY)` : ''}; the gateway and the floor proxy ${meta.runtime ?? 'bare Node'}.`,
  );
  out.push('');
  const rounds = meta.settings.serialRounds ?? 1;
  out.push(
    `### Serial keep-alive latency (${meta.settings.serialCount} timed requests${rounds > 1 ? ` in ${rounds} rounds over every target` : ''}, each run after ${meta.settings.warmup} warm-up), µs`,
  );
  out.push('');
  perFamily(serialTable);
  out.push(
    `### Throughput at c=${meta.settings.connections} (autocannon: ${fmt(meta.settings.amount)} requests; wrk: ${meta.settings.wrkSeconds} s${(meta.settings.wrkRounds ?? 1) > 1 ? ` in ${meta.settings.wrkRounds} rounds over every target, p50 the rounds' median, p99 their worst` : ''})`,
  );
  out.push('');
  perFamily(throughputTable);
  if (results.hardCase) {
    out.push('### The hard case: one core, c=50, the load generator on the other core');
    out.push('');
    out.push(renderHardCase(results.hardCase, meta.node));
    out.push('');
  }
  const storing = storingCost(results);
  if (storing) {
    out.push(storing);
    out.push('');
  }
  out.push(
    `Gateway memory (RSS): idle ${memory.idle.rssMb} MB` +
      (memory.afterPrewarm ? `, after pre-warm ${memory.afterPrewarm.rssMb} MB` : '') +
      `, after serial runs ${memory.afterSerial.rssMb} MB` +
      (memory.past20kRequests ? `, first reading past 20k requests ${memory.past20kRequests.rssMb} MB (${fmt(memory.past20kRequests.requestsServed)} served)` : '') +
      `, after the first 20k-request c=${meta.settings.connections} load run ${memory.after20k?.rssMb} MB ` +
      `(${fmt(memory.after20k?.requestsServed)} requests served by then), at the end ${memory.final.rssMb} MB, peak ${memory.final.peakRssMb} MB ` +
      `(${fmt(memory.gatewayRequests)} requests served)` +
      (memory.floor ? `; the floor proxy after its load run ${memory.floor.rssMb} MB.` : '.'),
  );
  out.push(
    `Cold start, median of ${coldStart.runs.length}: spawn → /healthz 200 ${coldStart.medianHealthzMs} ms, ` +
      `spawn → first chat 200 ${coldStart.medianChatMs} ms (runs: ${coldStart.runs.map((r) => `${r.healthzMs}/${r.chatMs}`).join(', ')}; ` +
      `other CPU ${coldStart.otherCpuPct ?? '–'} %)` +
      (coldStart.floorRuns ? `; the floor proxy, spawn → first chat 200 ${coldStart.floorMedianChatMs} ms (runs: ${coldStart.floorRuns.join(', ')}).` : '.'),
  );
  out.push('');
  out.push('### Targets');
  out.push('');
  out.push('| target | goal | measured | met |');
  out.push('|---|---|---|---|');
  for (const row of verdicts) out.push(`| ${row.name} | ${row.goal} | ${row.measured} | ${row.met ? 'yes' : '**no**'} |`);
  out.push('');
  return out.join('\n');
}
