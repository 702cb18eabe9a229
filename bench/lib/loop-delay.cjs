/**
 * Preloaded into the gateway (`--require bench/lib/loop-delay.cjs`) to see
 * its event loop's stalls: every second, a line of JSON to BENCH_LOOP_FILE
 * with the event-loop delay histogram of that second (perf_hooks, 1 ms
 * resolution: p50, p99, max, in ms) and the garbage collections that ended
 * in it (count, total and longest pause, by kind: minor = scavenge, major =
 * mark-compact). A delay percentile high while GC is short points at long
 * synchronous work; tasks-throughput.mjs reads the lines of its fetch phase.
 *
 * On a shared machine much of a delay can be the process waiting for a core,
 * not running: `busyP99`/`busyMax` count, for each gap between two ticks of a
 * 1 ms timer, only the CPU time the process used in it (never more than the
 * gap), so they are the delays the gateway's own work made.
 */
const { appendFileSync } = require('node:fs');
const { createHistogram, monitorEventLoopDelay, PerformanceObserver, constants } = require('node:perf_hooks');

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
  };
  let gc = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind ?? entry.kind] ?? 'other';
      const sum = (gc[kind] ??= { count: 0, ms: 0, maxMs: 0 });
      sum.count += 1;
      sum.ms += entry.duration;
      sum.maxMs = Math.max(sum.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  // Gaps of the 1 ms ticker, as CPU µs used in them (at least 1: a histogram takes no 0).
  const busy = createHistogram();
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  const ticker = setInterval(() => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const gapUs = (wall - lastWall) * 1000;
    if (gapUs > 2000) busy.record(Math.max(1, Math.round(Math.min(gapUs, cpu.user - lastCpu.user + cpu.system - lastCpu.system))));
    lastWall = wall;
    lastCpu = cpu;
  }, 1);
  ticker.unref();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const busyMs = (us) => Math.round(us / 10) / 100;
  const timer = setInterval(() => {
    const busyP99 = busy.count === 0 ? 0 : busyMs(busy.percentile(99));
    const line = { t: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), busyP99, busyMax: busyMs(busy.count === 0 ? 0 : busy.max), gc };
    for (const sum of Object.values(gc)) Object.assign(sum, { ms: Math.round(sum.ms * 100) / 100, maxMs: Math.round(sum.maxMs * 100) / 100 });
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    histogram.reset();
    busy.reset();
    gc = {};
  }, 1000);
  timer.unref();
}
