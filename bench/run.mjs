/**
 * One full benchmark run (`npm run bench`, after `npm run build`):
 * fake upstream, cold starts, serial latency, throughput and memory of the
 * built gateway, for the chat families C (Messages), D (content generation),
 * E (Responses) and F (Chat Completions). Writes bench/results/latest.json (+ .md) and prints the
 * markdown report. See bench/README.md for the method.
 *
 * Pinning (when taskset exists): the gateway on core 0; this script (the
 * load generator), the fake upstream and wrk on core 1.
 *
 * Knobs (environment): BENCH_FAMILIES ("C,D,E,F": the families to measure),
 * BENCH_PREWARM (2000 requests per target at c=10 before
 * anything is timed), BENCH_SERIAL_COUNT (3000), BENCH_WARMUP (200),
 * BENCH_AMOUNT (20000), BENCH_CONNECTIONS (50), BENCH_WRK_SECONDS (8, 0 = skip wrk),
 * BENCH_COLD_STARTS (5), BENCH_RETRIES (1: a measurement during which other
 * processes used > 10 % of the machine's CPU is repeated this many times, and
 * the quietest attempt kept; repeats stop once they have taken
 * BENCH_RETRY_BUDGET_S = 60 s in all), BENCH_QUIET_WAIT_S (30: in all, how long the run
 * may wait, before measurements, for other processes to calm down),
 * BENCH_CPU_PROF_DIR (profile the measured gateway), BENCH_GATEWAY_NODE_ARGS
 * (extra node flags for the measured gateway, e.g. "--max-semi-space-size=4"),
 * BENCH_ENTRY (the gateway bundle to run; default dist/bundle/main.js),
 * BENCH_NODE (the Node binary of the gateway and the floor proxy; default the
 * one running this script, which also runs the load and the fake upstream),
 * BENCH_HARD_ROUNDS (3, 0 = skip) and BENCH_HARD_SECONDS (5): the hard case,
 * each server alone on one core under wrk at c=50 from the other
 * (lib/hard-case.mjs), the floor and the C paths alternating;
 * BENCH_OPEN_TASKS (1, 0 = skip): 10,000 open image tasks fetched at c=50
 * (tasks-throughput.mjs through lib/open-tasks.mjs; its BENCH_TASKS_* knobs
 * apply).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE, measureColdStart, measureFloorColdStart, nodeVersionOf, serverRuntime, spawnGateway, startFloor, waitHealthy, writeGatewayConfig } from './lib/gateway.mjs';
import { measureHardCase } from './lib/hard-case.mjs';
import { measureOpenTasks } from './lib/open-tasks.mjs';
import { cleanUpOnExit, hasTaskset, runMain, memoryOf, pinSelf, spawnPinned, stopAll, stopProcess, waitForOutput } from './lib/processes.mjs';
import { cpuTimeMs, cpuWindow, measureQuietly, quietGate } from './lib/cpu-noise.mjs';
import { requestOnce } from './lib/probe.mjs';
import { addedLatency, median, renderMarkdown } from './lib/report.mjs';
import { defineTargets, parseFamilies } from './lib/targets.mjs';
import { evaluateTargets } from './lib/verdicts.mjs';
import { combineWrk, hasWrk, runAutocannon, runWrk } from './lib/throughput.mjs';
import { combineSerial, runSerial } from './serial.mjs';

const GATEWAY_CORE = 0;
const LOAD_CORE = 1;

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoDir = resolve(benchDir, '..');
// What `npm start` runs: the bundle (BENCH_ENTRY: another build of it, e.g. one made from a clean checkout).
const entry = resolve(process.env.BENCH_ENTRY || join(repoDir, 'dist', 'bundle', 'main.js'));

const knob = (name, fallback) => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return number;
};

const settings = {
  families: parseFamilies(process.env.BENCH_FAMILIES),
  prewarm: knob('BENCH_PREWARM', 2000),
  serialCount: knob('BENCH_SERIAL_COUNT', 3000),
  serialRounds: Math.max(1, knob('BENCH_SERIAL_ROUNDS', 3)),
  warmup: knob('BENCH_WARMUP', 200),
  amount: knob('BENCH_AMOUNT', 20_000),
  connections: knob('BENCH_CONNECTIONS', 50),
  wrkSeconds: hasWrk ? knob('BENCH_WRK_SECONDS', 8) : 0,
  wrkRounds: Math.max(1, knob('BENCH_WRK_ROUNDS', 2)),
  coldStarts: Math.max(1, knob('BENCH_COLD_STARTS', 5)),
  retries: knob('BENCH_RETRIES', 1),
  quietWaitS: knob('BENCH_QUIET_WAIT_S', 30),
  retryBudgetS: knob('BENCH_RETRY_BUDGET_S', 60),
  hardRounds: knob('BENCH_HARD_ROUNDS', 3),
  hardSeconds: Math.max(1, knob('BENCH_HARD_SECONDS', 5)),
  openTasks: knob('BENCH_OPEN_TASKS', 1),
};

/** Fails fast, before any timing, when a target does not answer completely (the gateway must relay the fake upstream's answer). */
async function checkAnswers(targets) {
  for (const target of targets) {
    const answer = await requestOnce(target.url, { method: 'POST', headers: target.headers, body: target.body });
    const missing = target.expect.filter((text) => !answer.body.includes(text));
    if (answer.status !== 200 || missing.length > 0) {
      throw new Error(`${target.label}: unexpected answer ${answer.status} (missing ${missing.join(', ')}): ${answer.body.slice(0, 400)}`);
    }
  }
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoDir, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

async function main() {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (or "npm run bench", which does)`);
  const startedAt = Date.now();
  const pinned = pinSelf(LOAD_CORE);
  const tmpRoot = mkdtempSync(join(os.tmpdir(), 'switchyard-bench-'));
  tmpRoots.push(tmpRoot);
  const log = (line) => process.stderr.write(`[bench] ${line}\n`);
  try {
    const meta = {
      date: new Date().toISOString(),
      // The measured servers' Node; the load's, when it differs, beside it.
      node: nodeVersionOf(SERVER_NODE),
      // The gateway and the floor proxy both run as the image runs Node (lib/image-runtime.mjs).
      runtime: serverRuntime(SERVER_NODE).label,
      loadNode: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      pinned: pinned && hasTaskset,
      wrk: hasWrk && settings.wrkSeconds > 0,
      commit: gitCommit(),
      loadAverageBefore: os.loadavg().map((n) => Math.round(n * 100) / 100),
      settings,
      gatewayNodeArgs: process.env.BENCH_GATEWAY_NODE_ARGS ?? '',
      families: settings.families,
      // Relative to the checkout: results name no machine's paths.
      entry: relative(repoDir, entry),
      entryOverride: Boolean(process.env.BENCH_ENTRY),
    };

    log('starting the fake upstream');
    const upstream = spawnPinned(LOAD_CORE, process.execPath, [join(benchDir, 'fake-upstream.mjs'), '0']);
    const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    const configPath = writeGatewayConfig(tmpRoot, upstreamUrl);
    // The floor shares the gateway's core; only one of them is under load at a time.
    const { child: floor, url: floorUrl } = await startFloor({ core: GATEWAY_CORE, upstreamUrl });
    const gatewayOptions = { entry, core: GATEWAY_CORE, tmpRoot, configPath };

    const livePids = [upstream.pid, floor.pid];
    const beforeEach = quietGate({ pids: () => livePids, budgetMs: settings.quietWaitS * 1000, thresholdPct: 10 });
    // Repeats stop once they have used their time budget, so that a busy machine cannot stretch the run without bound.
    let retrySpentMs = 0;
    const retries = () => (retrySpentMs < settings.retryBudgetS * 1000 ? settings.retries : 0);
    const quietly = (measure) => {
      let attempts = 0;
      const timed = async () => {
        const start = Date.now();
        try {
          return await measure();
        } finally {
          if (attempts++ > 0) retrySpentMs += Date.now() - start;
        }
      };
      return measureQuietly(timed, { pids: () => livePids, retries, thresholdPct: 10, beforeEach });
    };

    log(`cold start × ${settings.coldStarts}`);
    const coldWindow = cpuWindow(() => livePids);
    const coldRuns = [];
    const floorColdRuns = [];
    // One start of each first, not counted: the files meet the page cache, and a code cache another Node made is replaced.
    await measureColdStart(gatewayOptions);
    await measureFloorColdStart({ core: GATEWAY_CORE, upstreamUrl });
    // Alternating, so that both meet the same moments of a noisy machine.
    for (let i = 0; i < settings.coldStarts; i++) {
      coldRuns.push(await measureColdStart(gatewayOptions));
      floorColdRuns.push(await measureFloorColdStart({ core: GATEWAY_CORE, upstreamUrl }));
    }
    const coldStart = {
      runs: coldRuns,
      medianHealthzMs: median(coldRuns.map((r) => r.healthzMs)),
      medianChatMs: median(coldRuns.map((r) => r.chatMs)),
      floorRuns: floorColdRuns,
      floorMedianChatMs: median(floorColdRuns),
      otherCpuPct: coldWindow.stop(),
    };

    const profDir = process.env.BENCH_CPU_PROF_DIR;
    const extraArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const nodeArgs = [...extraArgs, ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profDir)}`] : [])];
    const gateway = await spawnGateway({ ...gatewayOptions, nodeArgs });
    await waitHealthy(gateway);
    const pid = gateway.child.pid;
    livePids.push(pid);
    const targets = defineTargets({ families: settings.families, upstreamUrl, gatewayUrl: gateway.baseUrl, floorUrl });
    const serverPid = { gateway: pid, floor: floor.pid, upstream: upstream.pid };
    await checkAnswers(targets);
    const memory = { idle: memoryOf(pid), gatewayRequests: 0 };
    const served = (target, requests) => {
      if (!target.gateway) return;
      memory.gatewayRequests += requests;
      if (!memory.past20kRequests && memory.gatewayRequests >= 20_000) {
        memory.past20kRequests = { ...memoryOf(pid), requestsServed: memory.gatewayRequests };
      }
    };

    // Steady state, not JIT warm-up, is what the serial numbers should show.
    if (settings.prewarm > 0) {
      log(`pre-warm: ${settings.prewarm} requests per target`);
      for (const target of targets) {
        const result = await runAutocannon({ ...target, amount: settings.prewarm, connections: 10 });
        if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${target.label}: failures during pre-warm`);
        served(target, result.requests);
      }
      memory.afterPrewarm = memoryOf(pid);
    }

    /**
     * Measures every target once a round, each run kept apart from the others' noise (`quietly`),
     * and answers each target's runs: a machine whose speed drifts over minutes then drifts under
     * the floor and the gateway alike, instead of under whichever ran last.
     */
    const inRounds = async (roundTargets, rounds, what, measure) => {
      const runs = new Map(roundTargets.map((target) => [target.key, []]));
      for (let round = 1; round <= rounds; round++) {
        for (const target of roundTargets) {
          log(`${what} ${round}/${rounds}: ${target.family} ${target.label}`);
          runs.get(target.key).push(await quietly(() => measure(target)));
        }
      }
      return runs;
    };

    const perRound = Math.ceil(settings.serialCount / settings.serialRounds);
    const serialRuns = await inRounds(targets, settings.serialRounds, 'serial', async (target) => {
      // Each run is a new connection, warmed up before it is timed.
      const result = await runSerial({ ...target, warmup: settings.warmup, count: perRound, keepSamples: true });
      served(target, settings.warmup + result.count + result.errors);
      return result;
    });
    const serial = Object.fromEntries([...serialRuns].map(([key, runs]) => [key, combineSerial(runs)]));
    memory.afterSerial = memoryOf(pid);

    const throughput = { autocannon: {}, wrk: meta.wrk ? {} : null };
    for (const target of targets) {
      log(`autocannon: ${target.family} ${target.label}`);
      const server = serverPid[target.server];
      const result = await quietly(async () => {
        const cpuBefore = cpuTimeMs(server);
        const run = await runAutocannon({ ...target, amount: settings.amount, connections: settings.connections });
        // CPU time per request of the process that served it: steadier than req/s on a busy machine.
        run.serverCpuUsPerRequest = Math.round(((cpuTimeMs(server) - cpuBefore) * 1000) / run.requests);
        served(target, run.requests);
        return run;
      });
      throughput.autocannon[target.key] = result;
      // The floor's own RSS after its load run: the memory target is relative to it.
      if (target.server === 'floor') memory.floor ??= memoryOf(floor.pid);
      if (!target.gateway) continue;
      result.rssMbAfter = memoryOf(pid).rssMb;
      memory.after20k ??= { ...memoryOf(pid), requestsServed: memory.gatewayRequests };
    }
    if (meta.wrk) {
      // In rounds too (the verdicts' throughput ratios come from these): the floor runs in every round.
      const seconds = Math.max(1, Math.round(settings.wrkSeconds / settings.wrkRounds));
      const wrkRuns = await inRounds(
        targets.filter((t) => t.wrk),
        settings.wrkRounds,
        `wrk ${seconds} s`,
        async (target) => {
          const server = serverPid[target.server];
          const cpuBefore = cpuTimeMs(server);
          const result = await runWrk({ ...target, seconds, connections: settings.connections, core: LOAD_CORE, scriptDir: tmpRoot });
          result.serverCpuMs = cpuTimeMs(server) - cpuBefore;
          served(target, result.requests);
          return result;
        },
      );
      for (const [key, runs] of wrkRuns) throughput.wrk[key] = combineWrk(runs);
    }
    // The hard case of issue 37, reported in a section of its own: the floor and family C's two paths, alternating.
    let hardCase = null;
    if (settings.hardRounds > 0 && settings.families.includes('C')) {
      const byKey = (key) => targets.find((t) => t.key === key);
      const servers = [
        { key: 'floor', label: 'reference floor', target: byKey('floor'), pid: floor.pid },
        { key: 'gateway-pass', label: 'gateway pass-through', target: byKey('gateway-pass'), pid },
        { key: 'gateway-translated', label: 'gateway translated (→ chat)', target: byKey('gateway-translated'), pid },
      ];
      hardCase = await measureHardCase({
        servers,
        upstreamPid: upstream.pid,
        rounds: settings.hardRounds,
        seconds: settings.hardSeconds,
        connections: settings.connections,
        loadCore: LOAD_CORE,
        scriptDir: tmpRoot,
        log,
      });
      for (const server of servers.slice(1)) served(server.target, hardCase.rows[server.key].requests);
    }
    memory.final = memoryOf(pid);
    await stopProcess(gateway.child, 15_000);
    await stopProcess(floor);
    await stopProcess(upstream);
    // Issue 37's image-task target, once the servers above are stopped: 10,000 open tasks, fetches at c=50.
    const openTasks = settings.openTasks > 0 ? await measureOpenTasks({ scriptDir: tmpRoot, log }) : null;
    meta.loadAverageAfter = os.loadavg().map((n) => Math.round(n * 100) / 100);
    meta.durationS = Math.round((Date.now() - startedAt) / 1000);

    const results = {
      meta,
      targets: targets.map(({ key, family, label, url, stream, baseline }) => ({ key, family, label, url, stream, baseline })),
      coldStart,
      serial,
      throughput,
      hardCase,
      memory,
      openTasks,
    };
    results.added = addedLatency(targets, serial);
    const verdicts = evaluateTargets(results);
    results.verdicts = verdicts;
    const markdown = renderMarkdown(results, verdicts);

    const outDir = join(benchDir, 'results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
    writeFileSync(join(outDir, 'latest.md'), markdown);
    process.stdout.write(markdown + '\n');
    if (profDir) log(`CPU profile written under ${resolve(profDir)}`);
  } finally {
    await stopAll();
    rmSync(tmpRoot, { recursive: true, force: true });
  }
}

/** Temporary directories of this run, removed at exit whatever the path out (watchdog and signals included). */
const tmpRoots = cleanUpOnExit('bench');

runMain('bench', main);
