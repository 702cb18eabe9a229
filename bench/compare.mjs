/**
 * The floor proxy and Switchyard side by side, in the method of the GoModel
 * gateway benchmark (June 2026: six workloads, 8,000 requests each at
 * concurrency 10, two trials in random order, latency the median across
 * them; throughput, peak RAM, cold start and what ships): Chat Completions,
 * Responses and Messages, each plain and streamed, pass-through to the fake
 * upstream (`bench/fake-upstream.mjs`). Needs `npm run build`.
 *
 *   node bench/compare.mjs [--trials 2] [--amount 8000] [--concurrency 10] [--cold 5] [--no-install-size]
 *
 * The servers run one at a time under load, pinned to core 0 (when taskset
 * exists); this script (the load, `lib/closed-loop.mjs`) and the fake
 * upstream on core 1. Each server gets 500 requests per workload first, not
 * counted (JIT warm-up). Responses are sent with `store: false`, so that the
 * relay is what is measured, as for the floor, which stores nothing.
 * Install size: `npm ci --omit=dev --ignore-scripts` of this lock file in a
 * scratch folder (Node 22+ needs no install script) plus `dist/bundle` and
 * `dist/console`, what the image copies; for the floor, undici and its
 * script. Node itself is in neither (its binary's size is printed beside).
 * BENCH_NODE runs both servers under another Node; BENCH_ENTRY another
 * bundle. Writes bench/results/compare-latest.json and .md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs } from './lib/cpu-noise.mjs';
import { runClosedLoop } from './lib/closed-loop.mjs';
import {
  CLIENT_HEADERS,
  RESPONSES_CLIENT_HEADERS,
  SERVER_NODE,
  chatBody,
  measureColdStart,
  measureFloorColdStart,
  messagesBody,
  nodeVersionOf,
  responsesBody,
  spawnGateway,
  startFloor,
  waitHealthy,
  writeGatewayConfig,
} from './lib/gateway.mjs';
import { requestOnce } from './lib/probe.mjs';
import { cleanUpOnExit, memoryOf, pinSelf, runMain, spawnPinned, stopAll, waitForOutput } from './lib/processes.mjs';
import { median } from './lib/report.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');
const entry = resolve(process.env.BENCH_ENTRY || join(repoDir, 'dist', 'bundle', 'main.js'));
const option = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} wants a whole number ≥ 1`);
  return value;
};

/** The six workloads: path, body, and the gateway's credentials (the floor ignores them). */
const WORKLOADS = [false, true].flatMap((stream) => [
  {
    key: `chat${stream ? '-stream' : ''}`,
    label: `Chat Completions${stream ? ', stream' : ''}`,
    path: '/v1/chat/completions',
    headers: RESPONSES_CLIENT_HEADERS,
    body: chatBody('translated-model', stream),
  },
  { key: `responses${stream ? '-stream' : ''}`, label: `Responses${stream ? ', stream' : ''}`, path: '/v1/responses', headers: RESPONSES_CLIENT_HEADERS, body: responsesBody('resp-native', stream) },
  { key: `messages${stream ? '-stream' : ''}`, label: `Messages${stream ? ', stream' : ''}`, path: '/v1/messages', headers: CLIENT_HEADERS, body: messagesBody('pass-model', stream) },
]);

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Bytes of the files under `path` (their apparent size; links not followed). */
function sizeOf(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** What an install of the gateway weighs: the production dependencies of the lock file, and the built bundle and console. */
function installSizes(tmpRoot) {
  const scratch = mkdtempSync(join(tmpRoot, 'install-'));
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(repoDir, file), join(scratch, file));
  execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'] });
  const dependencies = sizeOf(join(scratch, 'node_modules'));
  const built = sizeOf(join(dirname(entry))) + sizeOf(join(repoDir, 'dist', 'console'));
  const floor = sizeOf(join(repoDir, 'node_modules', 'undici')) + statSync(join(benchDir, 'floor-proxy.mjs')).size;
  rmSync(scratch, { recursive: true, force: true });
  return { gatewayMb: (dependencies + built) / 1e6, dependenciesMb: dependencies / 1e6, builtMb: built / 1e6, floorMb: floor / 1e6 };
}

async function main() {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
  const trials = option('trials', 2);
  const amount = option('amount', 8000);
  const concurrency = option('concurrency', 10);
  const coldRuns = option('cold', 5);
  const log = (line) => process.stderr.write(`[compare] ${line}\n`);
  pinSelf(1);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-compare-'));
  tmpRoots.push(tmpRoot);
  try {
    const upstream = spawnPinned(1, process.execPath, [join(benchDir, 'fake-upstream.mjs'), '0']);
    const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    const configPath = writeGatewayConfig(tmpRoot, upstreamUrl);

    log(`cold start × ${coldRuns}, alternating`);
    const gatewayOptions = { entry, core: 0, tmpRoot, configPath };
    await measureColdStart(gatewayOptions);
    await measureFloorColdStart({ core: 0, upstreamUrl });
    const cold = { gateway: [], floor: [] };
    for (let i = 0; i < coldRuns; i++) {
      cold.gateway.push((await measureColdStart(gatewayOptions)).chatMs);
      cold.floor.push(await measureFloorColdStart({ core: 0, upstreamUrl }));
    }

    const floor = await startFloor({ core: 0, upstreamUrl });
    const gateway = await spawnGateway(gatewayOptions);
    await waitHealthy(gateway);
    const servers = [
      { key: 'floor', label: 'floor proxy (node:http + undici Pool)', url: floor.url, pid: floor.child.pid },
      { key: 'gateway', label: 'Switchyard', url: gateway.baseUrl, pid: gateway.child.pid },
    ];
    for (const server of servers) {
      for (const workload of WORKLOADS) {
        const answer = await requestOnce(`${server.url}${workload.path}`, { method: 'POST', headers: workload.headers, body: workload.body });
        if (answer.status !== 200) throw new Error(`${server.label}, ${workload.label}: ${answer.status} ${answer.body.slice(0, 300)}`);
        await runClosedLoop({ url: `${server.url}${workload.path}`, headers: workload.headers, body: workload.body, amount: 500, connections: concurrency });
      }
    }

    const runs = new Map(servers.flatMap((server) => WORKLOADS.map((workload) => [`${server.key}/${workload.key}`, []])));
    const orders = [];
    for (let trial = 1; trial <= trials; trial++) {
      const order = shuffled(servers).map((server) => ({ server, workloads: shuffled(WORKLOADS) }));
      orders.push(order.map(({ server, workloads }) => `${server.key}: ${workloads.map((w) => w.key).join(', ')}`).join('; '));
      for (const { server, workloads } of order) {
        for (const workload of workloads) {
          log(`trial ${trial}/${trials}: ${server.label}, ${workload.label}`);
          const cpuBefore = cpuTimeMs(server.pid);
          const run = await runClosedLoop({ url: `${server.url}${workload.path}`, headers: workload.headers, body: workload.body, amount, connections: concurrency });
          if (run.errors > 0) throw new Error(`${server.label}, ${workload.label}: ${run.errors} failed requests`);
          run.cpuUsPerRequest = Math.round(((cpuTimeMs(server.pid) - cpuBefore) * 1000) / run.requests);
          runs.get(`${server.key}/${workload.key}`).push(run);
        }
      }
    }
    const memory = Object.fromEntries(servers.map((server) => [server.key, memoryOf(server.pid)]));
    let install = null;
    if (!process.argv.includes('--no-install-size')) {
      log('install size: npm ci --omit=dev in a scratch folder');
      install = installSizes(tmpRoot);
    }

    const rows = WORKLOADS.map((workload) => ({
      workload: workload.label,
      ...Object.fromEntries(
        servers.map((server) => {
          const list = runs.get(`${server.key}/${workload.key}`);
          const pick = (field) => median(list.map((run) => run[field]));
          const ms = (field) => Math.round(pick(field) * 100) / 100;
          return [server.key, { p50Ms: ms('p50Ms'), p99Ms: ms('p99Ms'), rps: Math.round(pick('rps')), cpuUsPerRequest: Math.round(pick('cpuUsPerRequest')) }];
        }),
      ),
    }));
    const results = {
      meta: {
        date: new Date().toISOString(),
        node: nodeVersionOf(SERVER_NODE),
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
        loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
        trials,
        amount,
        concurrency,
        orders,
        nodeBinaryMb: Math.round(statSync(SERVER_NODE).size / 1e5) / 10,
      },
      rows,
      coldStartMs: { gateway: median(cold.gateway), floor: median(cold.floor), gatewayRuns: cold.gateway, floorRuns: cold.floor },
      peakRssMb: { gateway: memory.gateway.peakRssMb, floor: memory.floor.peakRssMb },
      install,
    };
    const markdown = render(results);
    const outDir = join(benchDir, 'results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'compare-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(outDir, 'compare-latest.md'), markdown);
    process.stdout.write(markdown);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

const fmt = (value) => (Number.isFinite(value) ? value.toLocaleString('en-US') : '–');

function render({ meta, rows, coldStartMs, peakRssMb, install }) {
  const out = [
    `## Floor proxy and Switchyard, GoModel's method (${meta.date.slice(0, 10)})`,
    '',
    `Node ${meta.node}, ${meta.cpus} × ${meta.cpuModel}, servers pinned to core 0, load and fake upstream on core 1; ${fmt(meta.amount)} requests per workload at concurrency ${meta.concurrency}, ${meta.trials} trials in random order (medians across them); load average at the end ${meta.loadAverage.join(' / ')}.`,
    '',
    '| workload | floor p50 / p99 ms | Switchyard p50 / p99 ms | floor req/s | Switchyard req/s | × floor | CPU µs/req floor / Switchyard |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    out.push(
      `| ${row.workload} | ${row.floor.p50Ms} / ${row.floor.p99Ms} | ${row.gateway.p50Ms} / ${row.gateway.p99Ms} | ${fmt(row.floor.rps)} | ${fmt(row.gateway.rps)} | ${(row.gateway.rps / row.floor.rps).toFixed(2)} | ${row.floor.cpuUsPerRequest} / ${row.gateway.cpuUsPerRequest} |`,
    );
  }
  const size = (mb) => (Number.isFinite(mb) ? `${mb.toFixed(1)} MB` : '–');
  out.push(
    '',
    '| | floor proxy | Switchyard |',
    '|---|---:|---:|',
    `| peak RSS (VmHWM, whole run) | ${fmt(peakRssMb.floor)} MB | ${fmt(peakRssMb.gateway)} MB |`,
    `| cold start, spawn → first chat 200 (median of ${coldStartMs.gatewayRuns.length}) | ${fmt(Math.round(coldStartMs.floor))} ms | ${fmt(Math.round(coldStartMs.gateway))} ms |`,
    install
      ? `| install size (without Node, ${meta.nodeBinaryMb} MB) | ${size(install.floorMb)} (undici) | ${size(install.gatewayMb)} (dependencies ${size(install.dependenciesMb)}, dist ${size(install.builtMb)}) |`
      : '| install size | not measured | not measured |',
    '',
  );
  return out.join('\n');
}

/** Temporary directories of this run, removed at exit whatever the path out. */
const tmpRoots = cleanUpOnExit('compare');

runMain('compare', main);
