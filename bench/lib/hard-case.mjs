/**
 * The hard case of issue 37: each server (the floor proxy, then the gateway's
 * pass-through and translated paths) alone on one core, under wrk at c=50 on
 * the other core, the servers alternating round by round. Besides req/s and
 * the server's CPU per request, each run records the share of the run's wall
 * time the server used, and the load side (wrk and the fake upstream): a
 * ratio of req/s says what the servers cost only while the server is the one
 * that is full; when the load side fills its core first, the faster server
 * is held back and the ratio looks better than it is. Other processes' share
 * of the machine is recorded too (a shared machine takes from both).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs, cpuWindow, ownCpuMs, systemTimeMs } from './cpu-noise.mjs';
import { spawnGateway, startFloor, waitHealthy, writeGatewayConfig } from './gateway.mjs';
import { spawnPinned, waitForOutput } from './processes.mjs';
import { median } from './report.mjs';
import { hasWrk, runAutocannon, runWrk } from './throughput.mjs';

const fakeUpstream = join(dirname(fileURLToPath(import.meta.url)), '..', 'fake-upstream.mjs');

/**
 * The hard case's cast, started for a standalone script: the fake upstream on
 * the load core (1), then the floor proxy and the gateway (`entry`, its data
 * under `tmpRoot`) on the measured core (0). The caller stops them (stopAll).
 */
export async function startHardCaseServers({ entry, tmpRoot }) {
  const upstream = spawnPinned(1, process.execPath, [fakeUpstream, '0']);
  const [, upstreamUrl] = await waitForOutput(upstream, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
  const floor = await startFloor({ core: 0, upstreamUrl });
  const gateway = await spawnGateway({ entry, core: 0, tmpRoot, configPath: writeGatewayConfig(tmpRoot, upstreamUrl) });
  await waitHealthy(gateway);
  return { upstream, upstreamUrl, floor, gateway };
}

/** One timed run of `target` at `connections`, with its server's CPU and both cores' load. */
async function oneRun({ target, pid, upstreamPid, seconds, connections, loadCore, scriptDir }) {
  const cpuBefore = cpuTimeMs(pid);
  const sysBefore = systemTimeMs(pid);
  const loadBefore = ownCpuMs() + cpuTimeMs(upstreamPid);
  const others = cpuWindow(() => [pid, upstreamPid]);
  const startedAt = process.hrtime.bigint();
  const run = hasWrk ? await runWrk({ ...target, seconds, connections, core: loadCore, scriptDir }) : { seconds: undefined, ...(await runAutocannon({ ...target, amount: 20_000, connections })) };
  const wallMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const otherCpuPct = others.stop();
  const loadMs = ownCpuMs() + cpuTimeMs(upstreamPid) - loadBefore;
  const cpuMs = cpuTimeMs(pid) - cpuBefore;
  const sysMs = systemTimeMs(pid) - sysBefore;
  if (run.non2xx + run.errors + (run.timeouts ?? 0) > 0) throw new Error(`${target.label}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
  return {
    requests: run.requests,
    seconds: run.seconds ?? run.durationS,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    cpuMs,
    sysMs,
    // Shares of one core over the run's wall time (wrk's start and exit included).
    serverPct: Math.round((1000 * cpuMs) / wallMs) / 10,
    loadPct: Math.round((1000 * loadMs) / wallMs) / 10,
    otherCpuPct,
  };
}

/**
 * `servers`: [{ key, label, target, pid }], the floor first; `upstreamPid`,
 * the fake upstream on the load core. Each round runs
 * every server once (the order reversed every other round), after a warm-up
 * run of `warmupSeconds` that is not counted. Answers, per key: req/s over
 * all rounds, CPU µs per request (and the kernel's part of it), the median p50, the worst p99, the median
 * shares of a core the server and the load side used, and the highest share
 * of the machine other processes took; `tool` says what drove the load.
 */
export async function measureHardCase({ servers, upstreamPid, rounds = 3, seconds = 5, warmupSeconds = 2, connections = 50, loadCore = 1, scriptDir, log = () => {} }) {
  const runs = new Map(servers.map((server) => [server.key, []]));
  for (const server of servers) await oneRun({ ...server, upstreamPid, seconds: warmupSeconds, connections, loadCore, scriptDir });
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      log(`hard case ${round + 1}/${rounds}: ${server.label}`);
      runs.get(server.key).push(await oneRun({ ...server, upstreamPid, seconds, connections, loadCore, scriptDir }));
    }
  }
  const rows = {};
  for (const server of servers) {
    const list = runs.get(server.key);
    const requests = list.reduce((sum, run) => sum + run.requests, 0);
    const secondsAll = list.reduce((sum, run) => sum + run.seconds, 0);
    const cpuMs = list.reduce((sum, run) => sum + run.cpuMs, 0);
    const sysMs = list.reduce((sum, run) => sum + run.sysMs, 0);
    rows[server.key] = {
      label: server.label,
      requests,
      rps: Math.round(requests / secondsAll),
      rpsPerRound: list.map((run) => Math.round(run.requests / run.seconds)),
      cpuUsPerRequest: Math.round((cpuMs * 1000) / requests),
      // The kernel's part (sockets, wake-ups): the same work for every server, so where it is dear the ratios move towards 1.
      sysUsPerRequest: Math.round((sysMs * 1000) / requests),
      p50Ms: median(list.map((run) => run.p50Ms)),
      p99Ms: Math.max(...list.map((run) => run.p99Ms)),
      serverPct: median(list.map((run) => run.serverPct)),
      loadPct: median(list.map((run) => run.loadPct)),
      otherCpuPct: Math.max(...list.map((run) => run.otherCpuPct ?? 0)),
    };
  }
  return { tool: hasWrk ? `wrk -t1 -c${connections}` : `autocannon c=${connections} (no wrk)`, rounds, seconds, warmupSeconds, connections, rows };
}
