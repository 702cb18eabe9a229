/**
 * Cold start of the built gateway, many times: `node bench/cold-start.mjs`
 * (after `npm run build`). Each spawn gets a fresh data directory (so the
 * migrations, the config apply and the secret generation run) and the bench
 * config of `lib/gateway.mjs`, pinned to core 0 when `taskset` exists (the
 * fake upstream and this script run on core 1). For every spawn it records
 * the wall time from just before `spawn()` to the first 200 from /healthz and
 * to the first 200 of a non-streaming pass-through chat request sent right
 * after, and the child's CPU time (user + sys, /proc/<pid>/stat) at each of
 * those two moments. After every gateway spawn, the floor proxy is spawned
 * on the same core under the same Node and timed to its first 200 for the
 * same request: what Node and undici alone take to start. It prints the
 * median, min and max of each figure, and each entry's medians over the
 * floor's.
 *
 *   node bench/cold-start.mjs [entry.js[,NODE_ARG…][,node=/path/to/node] ...] [--runs N] [--node-arg ARG ...]
 *
 * With two or more entries (e.g. a saved copy of an older bundle beside
 * dist/bundle/main.js, or the same bundle twice, once with a V8 flag after a
 * comma: `dist/bundle/main.js dist/bundle/main.js,--max-semi-space-size=16`)
 * the spawns alternate between them, A B A B …, so that the machine's drift
 * touches both alike. `--node-arg` applies to every entry. `node=` runs an
 * entry under another Node binary (default: `BENCH_NODE`, else this one);
 * `data=kept` restarts it on one data directory (made by its first, uncounted
 * spawn) instead of a fresh one each time: a restart, not a first start;
 * give each Node a bundle of its own, built by it (`/path/to/node
 * scripts/bundle.mjs dist/ab/n24`), since a code cache made by one Node is
 * refused by another and rewritten at exit. BENCH_COLD_RUNS (default 15) is
 * the number of spawns per entry. An entry outside the checkout cannot find
 * the native modules: keep copies under dist/.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_HEADERS, SERVER_NODE, measureFloorColdStart, messagesBody, nodeVersionOf, spawnGateway, waitHealthy, writeGatewayConfig } from './lib/gateway.mjs';
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
      const [file, ...rest] = argv[i].split(',');
      const node = rest.find((arg) => arg.startsWith('node='));
      const kept = rest.includes('data=kept');
      const own = rest.filter((arg) => arg !== node && arg !== 'data=kept');
      const entry = entryOf(file, own, node ? resolve(node.slice('node='.length)) : SERVER_NODE);
      entries.push(kept ? { ...entry, kept, label: `${entry.label} data=kept` } : entry);
    }
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs wants a whole number ≥ 1');
  return { entries: entries.length ? entries : [entryOf(join(repoDir, 'dist', 'bundle', 'main.js'), [], SERVER_NODE)], nodeArgs, runs };
}

function entryOf(file, nodeArgs, node) {
  const version = nodeVersionOf(node);
  return { file: resolve(file), nodeArgs, node, version, kept: false, label: [relative(repoDir, resolve(file)), ...nodeArgs, `(node ${version})`].join(' ') };
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
    const floors = entries.map(() => []);
    // One spawn of each entry first, not counted: the page cache and the disk see the files once (and a bundle whose code cache another Node made gets its own).
    // `data=kept`: every spawn of the entry restarts on the data directory its first (uncounted) spawn made.
    const keptDirs = entries.map((entry) => (entry.kept ? mkdtempSync(join(tmpRoot, 'kept-')) : undefined));
    const spawnOf = (entry) => ({
      entry: entry.file,
      node: entry.node,
      core: GATEWAY_CORE,
      tmpRoot,
      configPath,
      nodeArgs: [...nodeArgs, ...entry.nodeArgs],
      env: entry.kept ? { SWITCHYARD_DATA_DIR: keptDirs[entries.indexOf(entry)] } : {},
    });
    const floorOf = async (entry) => {
      let cpuMs = NaN;
      const ms = await measureFloorColdStart({ core: GATEWAY_CORE, upstreamUrl, node: entry.node, onReady: (child) => (cpuMs = cpuMsOf(child.pid)) });
      return { ms, cpuMs };
    };
    for (const entry of entries) {
      await oneColdStart(spawnOf(entry));
      await floorOf(entry);
    }
    for (let i = 0; i < runs; i++) {
      for (const [n, entry] of entries.entries()) {
        results[n].push(await oneColdStart(spawnOf(entry)));
        floors[n].push(await floorOf(entry));
      }
    }
    const out = [
      `cold start, ${runs} spawns per entry, ${hasTaskset ? 'gateway pinned to core 0' : 'not pinned (no taskset)'}${nodeArgs.length ? `, ${nodeArgs.join(' ')}` : ''}; the floor proxy spawned after each, under the entry's Node`,
      '',
      '| entry | figure | median ms | min | max |',
      '|---|---|---:|---:|---:|',
    ];
    const gaps = [];
    for (const [n, entry] of entries.entries()) {
      for (const [key, label] of FIGURES) {
        const { median, min, max } = summary(results[n].map((r) => r[key]));
        out.push(`| ${entry.label} | ${label} | ${median.toFixed(0)} | ${min.toFixed(0)} | ${max.toFixed(0)} |`);
      }
      const floor = summary(floors[n].map((f) => f.ms));
      const floorCpu = summary(floors[n].map((f) => f.cpuMs));
      out.push(`| ${entry.label} | floor proxy, wall → first chat 200 | ${floor.median.toFixed(0)} | ${floor.min.toFixed(0)} | ${floor.max.toFixed(0)} |`);
      out.push(`| ${entry.label} | floor proxy, CPU at first chat 200 | ${floorCpu.median.toFixed(0)} | ${floorCpu.min.toFixed(0)} | ${floorCpu.max.toFixed(0)} |`);
      const over = (key, base) => (summary(results[n].map((r) => r[key])).median - base.median).toFixed(0);
      gaps.push(
        `${entry.label}: /healthz ${over('healthzMs', floor)} ms, first chat ${over('chatMs', floor)} ms of wall time over the floor's first chat; CPU ${over('healthzCpuMs', floorCpu)} and ${over('chatCpuMs', floorCpu)} ms over the floor's (medians)`,
      );
    }
    process.stdout.write(`${out.join('\n')}\n\n${gaps.join('\n')}\n`);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

/** Temporary directories of this run, removed at exit whatever the path out (watchdog and signals included). */
const tmpRoots = cleanUpOnExit('cold-start');

runMain('cold-start', main);
