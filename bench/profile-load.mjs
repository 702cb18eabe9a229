/**
 * CPU profile of the built gateway under load on one path: starts the fake
 * upstream and `node --cpu-prof dist/bundle/main.js` (pinned as in run.mjs),
 * sends `amount` requests at c=50 with autocannon, stops the gateway (which
 * writes the profile) and prints the summary of bench/profile-summary.mjs.
 *
 *   node bench/profile-load.mjs <path>[-stream] [amount=20000] [--alloc | --promoted]
 * where <path> is pass or translated (family C), gem-native or gem-translated
 * (D), resp-native or resp-translated (E; `store: false`).
 *
 * `--alloc` samples allocations instead of CPU time (every object made, the
 * ones already collected included: what young-generation GC time comes from),
 * with V8 inlining off so each allocation is charged to its own function; the
 * summary is then bytes allocated per function and per request.
 * `--promoted` samples only the objects that outlive the young generation
 * (promoted to the old space: its growth under load is most of RSS's).
 *
 * Profiles go to BENCH_CPU_PROF_DIR (default: <tmp>/switchyard-profiles).
 * The profile also covers start-up and a short warm-up: under a second of samples.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnGateway, waitHealthy, writeGatewayConfig } from './lib/gateway.mjs';
import { killAllNow, pinSelf, spawnPinned, stopAll, stopProcess, waitForOutput } from './lib/processes.mjs';
import { defineTargets, parseFamilies } from './lib/targets.mjs';
import { runAutocannon } from './lib/throughput.mjs';
import { summarise, summariseAllocations } from './profile-summary.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
// BENCH_ENTRY: another build of the bundle, as in run.mjs.
const entry = resolve(process.env.BENCH_ENTRY || join(benchDir, '..', 'dist', 'bundle', 'main.js'));

async function main() {
  const promoted = process.argv.includes('--promoted');
  const alloc = promoted || process.argv.includes('--alloc');
  const [path = 'pass', amountText = '20000'] = process.argv.slice(2).filter((arg) => arg !== '--alloc' && arg !== '--promoted');
  const amount = Number(amountText);
  const known = defineTargets({ families: parseFamilies(''), upstreamUrl: 'http://127.0.0.1:1', gatewayUrl: 'http://127.0.0.1:1', floorUrl: 'http://127.0.0.1:1' });
  if (!known.some((t) => t.key === `gateway-${path}`) || !Number.isInteger(amount) || amount < 1) {
    throw new Error('usage: node bench/profile-load.mjs pass|translated|gem-native|gem-translated|resp-native|resp-translated[-stream] [amount]');
  }
  pinSelf(1);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-profile-'));
  const profDir = resolve(process.env.BENCH_CPU_PROF_DIR ?? join(os.tmpdir(), 'switchyard-profiles'));
  mkdirSync(profDir, { recursive: true });
  const before = new Set(readdirSync(profDir));
  try {
    const upstream = spawnPinned(1, process.execPath, [join(benchDir, 'fake-upstream.mjs'), '0']);
    const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    const configPath = writeGatewayConfig(tmpRoot, upstreamUrl);
    const nodeArgs = alloc ? ['--require', join(benchDir, 'lib', 'allocation-sampling.cjs')] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`];
    if (alloc) Object.assign(process.env, { BENCH_ALLOC_DIR: profDir, BENCH_ALLOC_NO_INLINING: '1', BENCH_ALLOC_PROMOTED: promoted ? '1' : '0' });
    const gateway = await spawnGateway({ entry, core: 0, tmpRoot, configPath, nodeArgs });
    await waitHealthy(gateway);
    const targets = defineTargets({ families: parseFamilies(''), upstreamUrl, gatewayUrl: gateway.baseUrl, floorUrl: upstreamUrl });
    const target = targets.find((t) => t.key === `gateway-${path}`);
    await runAutocannon({ ...target, amount: 2000, connections: 10 });
    const result = await runAutocannon({ ...target, amount, connections: 50 });
    process.stderr.write(`${path}: ${result.rps} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, failures ${result.non2xx + result.errors}\n`);
    await stopProcess(gateway.child, 15_000);
    await stopProcess(upstream);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
  const written = readdirSync(profDir).filter((name) => name.endsWith(alloc ? '.heapprofile' : '.cpuprofile') && !before.has(name));
  if (written.length === 0) throw new Error(`no profile was written to ${profDir}`);
  const file = join(profDir, written[0]);
  if (alloc) {
    // Requests served: the warm-up and the measured run.
    const summary = summariseAllocations(JSON.parse(readFileSync(file, 'utf8')), 30, 2000 + amount);
    process.stdout.write(`profile: ${file} (${summary.totalMb} MB ${promoted ? 'promoted or alive' : 'allocated'}, ${summary.perRequestKb} kB per request)\n\n`);
    for (const row of summary.functions) process.stdout.write(`${String(row.mb).padStart(8)} MB ${String(row.percent).padStart(5)} %  ${row.key}\n`);
    return;
  }
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')), 25);
  process.stdout.write(`profile: ${file} (${summary.totalMs} ms sampled)\n`);
  for (const [title, rows] of [
    ['self time', summary.functions],
    ['by package / file', summary.owners],
    ['own functions, inclusive', summary.ownCode],
  ]) {
    process.stdout.write(`\n${title}\n`);
    for (const row of rows) process.stdout.write(`${String(row.ms).padStart(9)} ms ${String(row.percent).padStart(5)} %  ${row.key}\n`);
  }
}

process.on('exit', killAllNow);
main().catch((error) => {
  process.stderr.write(`profile-load failed: ${error.stack ?? error.message}\n`);
  stopAll().finally(() => process.exit(1));
});
