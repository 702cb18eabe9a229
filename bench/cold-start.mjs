/**
 * Cold start of the built gateway, many times: `node bench/cold-start.mjs`
 * (after `npm run build`). Each spawn gets a fresh data directory (so the
 * migrations, the config apply and the secret generation run) and the bench
 * config of `lib/gateway.mjs`, pinned to core 0 when `taskset` exists (the
 * fake upstream and this script run on core 1). For every spawn it records
 * the wall time from just before `spawn()` to the first 200 from /healthz and
 * to the first 200 of a non-streaming pass-through chat request sent right
 * after, and the child's CPU time (user + sys, /proc/<pid>/stat) at each of
 * those two moments. It prints the median, min and max of each figure.
 *
 *   node bench/cold-start.mjs [entry.js[,NODE_ARG…] ...] [--runs N] [--node-arg ARG ...]
 *
 * With two or more entries (e.g. a saved copy of an older bundle beside
 * dist/bundle/main.js, or the same bundle twice, once with a V8 flag after a
 * comma: `dist/bundle/main.js dist/bundle/main.js,--max-semi-space-size=16`)
 * the spawns alternate between them, A B A B …, so that the machine's drift
 * touches both alike. `--node-arg` applies to every entry. BENCH_COLD_RUNS (default 15) is
 * the number of spawns per entry. An entry outside the checkout cannot find
 * the native modules: keep copies under dist/.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_HEADERS, messagesBody, spawnGateway, waitHealthy, writeGatewayConfig } from './lib/gateway.mjs';
import { requestOnce } from './lib/probe.mjs';
import { cleanUpOnExit, hasTaskset, runMain, pinSelf, spawnPinned, stopAll, stopProcess, waitForOutput } from './lib/processes.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');
const GATEWAY_CORE = 0;
const LOAD_CORE = 1;

function parseArgs(argv) {
  const entries = [];
  const nodeArgs = [];
  let runs = Number(process.env.BENCH_COLD_RUNS ?? 15);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--node-arg') nodeArgs.push(argv[++i]);
    else {
      const [file, ...own] = argv[i].split(',');
      entries.push({ file: resolve(file), nodeArgs: own, label: [relative(repoDir, resolve(file)), ...own].join(' ') });
    }
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number ≥ 1');
  const main = join(repoDir, 'dist', 'bundle', 'main.js');
  return { entries: entries.length ? entries : [{ file: main, nodeArgs: [], label: relative(repoDir, main) }], nodeArgs, runs };
}

/** user + sys CPU of a live process, in ms (fields 14 and 15 of /proc/<pid>/stat, in clock ticks). */
function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks * (1000 / CLOCK_TICKS);
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux this runs on (the kernel's ABI fixes it for /proc). */
const CLOCK_TICKS = 100;

const sinceMs = (start) => Number(process.hrtime.bigint() - start) / 1e6;

async function oneColdStart(options) {
  const gateway = await spawnGateway(options);
  try {
    const healthzMs = await waitHealthy(gateway);
    const healthzCpuMs = cpuMsOf(gateway.child.pid);
    const answer = await requestOnce(`${gateway.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: CLIENT_HEADERS,
      body: messagesBody('pass-model'),
    });
    const chatMs = sinceMs(gateway.spawnedAt);
    const chatCpuMs = cpuMsOf(gateway.child.pid);
    if (answer.status !== 200) throw new Error(`first chat request answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    return { healthzMs, healthzCpuMs, chatMs, chatCpuMs };
  } finally {
    await stopProcess(gateway.child);
  }
}

function summary(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return { median: NaN, min: NaN, max: NaN };
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1) };
}

const FIGURES = [
  ['healthzMs', 'wall → /healthz 200'],
  ['healthzCpuMs', 'CPU at /healthz 200'],
  ['chatMs', 'wall → first chat 200'],
  ['chatCpuMs', 'CPU at first chat 200'],
];

async function main() {
  const { entries, nodeArgs, runs } = parseArgs(process.argv.slice(2));
  pinSelf(LOAD_CORE);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-cold-'));
  tmpRoots.push(tmpRoot);
  try {
    const upstream = spawnPinned(LOAD_CORE, process.execPath, [join(benchDir, 'fake-upstream.mjs'), '0']);
    const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    const configPath = writeGatewayConfig(tmpRoot, upstreamUrl);
    const results = entries.map(() => []);
    // One spawn of each entry first, not counted: the page cache and the disk see the files once.
    const spawnOf = (entry) => ({ entry: entry.file, core: GATEWAY_CORE, tmpRoot, configPath, nodeArgs: [...nodeArgs, ...entry.nodeArgs] });
    for (const entry of entries) await oneColdStart(spawnOf(entry));
    for (let i = 0; i < runs; i++) {
      for (const [n, entry] of entries.entries()) results[n].push(await oneColdStart(spawnOf(entry)));
    }
    const out = [
      `cold start, ${runs} spawns per entry, ${hasTaskset ? 'gateway pinned to core 0' : 'not pinned (no taskset)'}, node ${process.version}${nodeArgs.length ? ` ${nodeArgs.join(' ')}` : ''}`,
      '',
      '| entry | figure | median ms | min | max |',
      '|---|---|---:|---:|---:|',
    ];
    for (const [n, entry] of entries.entries()) {
      for (const [key, label] of FIGURES) {
        const { median, min, max } = summary(results[n].map((r) => r[key]));
        out.push(`| ${entry.label} | ${label} | ${median.toFixed(0)} | ${min.toFixed(0)} | ${max.toFixed(0)} |`);
      }
    }
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

/** Temporary directories of this run, removed at exit whatever the path out (watchdog and signals included). */
const tmpRoots = cleanUpOnExit('cold-start');

runMain('cold-start', main);
