/**
 * Benchmark of the durable task engine through family A (`node bench/tasks-throughput.mjs`):
 *
 * 1. submit throughput: BENCH_TASKS_OPEN imagine submissions (default 10,000)
 *    at BENCH_TASKS_CONNECTIONS (50) against a simulator channel whose tasks
 *    last long enough to stay open for the whole run;
 * 2. reads with those tasks open: fetch of one random task (with wrk when
 *    installed: 2 s of warm-up, then BENCH_TASKS_FETCH_S seconds, 8; else
 *    autocannon, BENCH_TASKS_READS requests after as many to warm up), then
 *    the same fetches in an open loop (lib/open-loop.mjs) at shares of the
 *    rate the closed loop reached (BENCH_TASKS_PACE_SHARES, 0.5,0.8), each
 *    for BENCH_TASKS_FETCH_S seconds: a closed loop of c connections at
 *    saturation waits c ÷ throughput by Little's law, an open loop shows the
 *    latency at a rate the gateway keeps up with; and list-by-condition of
 *    100 random ids (BENCH_TASKS_READS ÷ 5 requests);
 * 3. the poll loop's cost: the gateway's CPU share over BENCH_TASKS_IDLE_S
 *    seconds (10) while it keeps polling every open task;
 * 4. drain: BENCH_TASKS_DRAIN (2,000) short tasks (1 s each, small images)
 *    submitted at once, timed until the last one is SUCCESS.
 *
 * On SQLite, and on PostgreSQL when BENCH_TASKS_PG_URL is set (or the test
 * database at postgres://127.0.0.1:5432/test answers). The gateway runs as
 * its own process, compiled from src/ into a temporary directory (or the
 * entry named by BENCH_TASKS_ENTRY; BENCH_TASKS_NODE_ARGS adds node flags, e.g.
 * "--cpu-prof"). The report is printed as markdown, and written to
 * BENCH_TASKS_OUT when set; the raw rows as JSON to BENCH_TASKS_JSON. The
 * gateway runs under BENCH_NODE when set, the load on this Node.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { compileGateway, runOnBothEngines, startGateway as startTaskGateway, stopGateway } from './lib/task-harness.mjs';
import { runOpenLoop } from './lib/open-loop.mjs';
import { hasWrk, runWrk } from './lib/throughput.mjs';

const knob = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const settings = {
  open: knob('BENCH_TASKS_OPEN', 10_000),
  connections: knob('BENCH_TASKS_CONNECTIONS', 50),
  reads: knob('BENCH_TASKS_READS', 5_000),
  fetchSeconds: knob('BENCH_TASKS_FETCH_S', 8),
  /** The open-loop fetches' rates, as shares of what the closed loop at `connections` sustained (comma-separated). */
  paceShares: (process.env.BENCH_TASKS_PACE_SHARES ?? '0.5,0.8')
    .split(',')
    .map(Number)
    .filter((share) => share > 0),
  idleSeconds: knob('BENCH_TASKS_IDLE_S', 10),
  drain: knob('BENCH_TASKS_DRAIN', 2_000),
};
const loopDelayPreload = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'loop-delay.cjs');
const KEY = 'sk-bench-tasks-0123456789';
const ADMIN = `sk-admin-${randomBytes(8).toString('hex')}`;
const children = new Set();
const cleanups = [];

function compile() {
  return compileGateway(cleanups, process.env.BENCH_TASKS_ENTRY);
}

async function startGateway(entry, env, loopFile) {
  return startTaskGateway({
    entry,
    config: {
      channels: [
        { name: 'long', type: 'simulator', priority: 10, settings: { taskSeconds: 3600, imageSize: 64, accounts: [{ instanceId: 'long' }] } },
        { name: 'short', type: 'simulator', settings: { taskSeconds: 1, imageSize: 64, accounts: [{ instanceId: 'short' }] } },
      ],
      keys: [{ name: 'bench', key: KEY }],
      prices: { 'ig_*': { perCall: 0.01 } },
    },
    env: { ...env, BENCH_LOOP_FILE: loopFile },
    nodeArgs: ['--require', loopDelayPreload, ...(process.env.BENCH_TASKS_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    adminKey: ADMIN,
    children,
    cleanups,
  });
}

function load({ url, method = 'POST', body, amount, path }) {
  return new Promise((done, fail) => {
    const request = { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } };
    if (body) request.body = typeof body === 'function' ? undefined : JSON.stringify(body);
    if (typeof body === 'function' || path) {
      request.setupRequest = (req) => ({ ...req, ...(path ? { path: path() } : {}), ...(typeof body === 'function' ? { body: JSON.stringify(body()) } : {}) });
    }
    const ids = [];
    // Submissions answer an envelope whose result is the new task's id.
    request.onResponse = (status, responseBody) => {
      if (status !== 200 || !responseBody || responseBody[0] !== '{') return;
      const result = JSON.parse(responseBody).result;
      if (typeof result === 'string') ids.push(result);
    };
    autocannon({ url, amount, connections: settings.connections, timeout: 30, sampleInt: 50, requests: [request] }, (error, result) => (error ? fail(error) : done({ result, ids })));
  });
}

/**
 * Fetches of random open tasks, after a warm-up. wrk when installed: autocannon
 * in this process tops out near 10 k req/s, below what the gateway serves.
 */
async function fetchLoad(url, ids, pick, pid) {
  if (hasWrk) {
    const scriptDir = mkdtempSync(join(os.tmpdir(), 'switchyard-bench-wrk-'));
    cleanups.push(() => rmSync(scriptDir, { recursive: true, force: true }));
    const wrk = (seconds) => runWrk({ url, paths: ids.map((id) => `/ig/task/${id}/fetch`), headers: { authorization: `Bearer ${KEY}` }, seconds, connections: settings.connections, scriptDir });
    await wrk(2);
    const before = cpuMs(pid);
    const from = Date.now();
    const result = await wrk(settings.fetchSeconds);
    const cpuUsPerRequest = Math.round(((cpuMs(pid) - before) * 1000) / result.requests);
    return { tool: 'wrk', from, to: Date.now(), requests: result.requests, rps: result.rps, p50Ms: result.p50Ms, p99Ms: result.p99Ms, non2xx: result.non2xx, errors: result.errors, cpuUsPerRequest };
  }
  const run = () => load({ url: `${url}/ig/task/x/fetch`, method: 'GET', amount: settings.reads, path: () => `/ig/task/${pick()}/fetch` });
  await run();
  const before = cpuMs(pid);
  const from = Date.now();
  const result = summary(await run());
  return { tool: 'autocannon', from, to: Date.now(), ...result, cpuUsPerRequest: Math.round(((cpuMs(pid) - before) * 1000) / result.requests) };
}

const summary = ({ result }) => ({
  requests: result.requests.total,
  rps: Math.round(result.requests.total / result.duration),
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
});

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function waitAllDone(url, ids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let pending = ids;
  while (pending.length > 0) {
    if (Date.now() > deadline) throw new Error(`${pending.length} tasks still open`);
    const next = [];
    for (let i = 0; i < pending.length; i += 500) {
      const response = await fetch(`${url}/ig/task/list-by-condition`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: pending.slice(i, i + 500) }),
      });
      for (const task of await response.json()) if (task.status !== 'SUCCESS' && task.status !== 'FAILURE') next.push(task.id);
    }
    pending = next;
    if (pending.length > 0) await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The gateway's event loop over the whole seconds of [from, to] (bench/lib/loop-delay.cjs):
 * the worst second's delay p99 and max, and the longest GC pause of each kind.
 */
function loopDelay(file, from, to) {
  if (!existsSync(file)) return undefined;
  const seconds = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((line) => line.t - 1000 >= from && line.t <= to);
  if (seconds.length === 0) return undefined;
  const worst = (pick) => Math.max(...seconds.map(pick));
  const gc = (kind) => ({ maxMs: worst((s) => s.gc[kind]?.maxMs ?? 0), perSecond: Math.round(seconds.reduce((n, s) => n + (s.gc[kind]?.count ?? 0), 0) / seconds.length) });
  return {
    p50Ms: worst((s) => s.p50),
    p99Ms: worst((s) => s.p99),
    maxMs: worst((s) => s.max),
    busyP99Ms: worst((s) => s.busyP99 ?? 0),
    busyMaxMs: worst((s) => s.busyMax ?? 0),
    minor: gc('minor'),
    major: gc('major'),
  };
}

async function runEngine(label, entry, env) {
  // BENCH_TASKS_LOOP_DIR keeps the per-second lines (one file per engine) for a closer look.
  const keep = process.env.BENCH_TASKS_LOOP_DIR;
  const loopFile = join(keep ?? mkdtempSync(join(os.tmpdir(), 'switchyard-bench-loop-')), `loop-${label}.jsonl`);
  if (!keep) cleanups.push(() => rmSync(dirname(loopFile), { recursive: true, force: true }));
  const { child, url } = await startGateway(entry, env, loopFile);
  try {
    const submit = await load({ url: `${url}/ig/submit/imagine`, amount: settings.open, body: { prompt: 'bench task', accountFilter: { instanceId: 'long' } } });
    const ids = submit.ids;
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    const fetchOne = await fetchLoad(url, ids, pick, child.pid);
    fetchOne.loop = loopDelay(loopFile, fetchOne.from, fetchOne.to);
    // The same fetches at rates the gateway sustains, not at saturation: what a client sees short of the limit.
    const fetchPaced = [];
    for (const share of settings.paceShares) {
      const paced = await runOpenLoop({
        url,
        paths: ids.map((id) => `/ig/task/${id}/fetch`),
        headers: { authorization: `Bearer ${KEY}` },
        rate: Math.max(1, Math.round(fetchOne.rps * share)),
        seconds: settings.fetchSeconds,
        connections: settings.connections,
      });
      fetchPaced.push({ share, ...paced });
    }
    const listMany = await load({
      url: `${url}/ig/task/list-by-condition`,
      amount: Math.max(1, Math.round(settings.reads / 5)),
      body: () => ({ ids: Array.from({ length: 100 }, pick) }),
    });
    const before = cpuMs(child.pid);
    await new Promise((r) => setTimeout(r, settings.idleSeconds * 1000));
    const idleCpu = ((cpuMs(child.pid) - before) / (settings.idleSeconds * 1000)) * 100;
    const started = Date.now();
    const drain = await load({ url: `${url}/ig/submit/imagine`, amount: settings.drain, body: { prompt: 'drain task', accountFilter: { instanceId: 'short' } } });
    await waitAllDone(url, drain.ids, 300_000);
    const drainS = (Date.now() - started) / 1000;
    return {
      label,
      open: ids.length,
      submit: summary(submit),
      fetch: fetchOne,
      fetchPaced,
      list100: summary(listMany),
      idleCpuPercent: Math.round(idleCpu * 10) / 10,
      drain: { tasks: drain.ids.length, seconds: Math.round(drainS * 10) / 10, perSecond: Math.round(drain.ids.length / drainS) },
    };
  } finally {
    await stopGateway(child);
  }
}

function markdown(rows) {
  const lines = [
    `# Task engine benchmark (${new Date().toISOString()}, ${os.cpus().length} CPUs, Node ${process.version})`,
    '',
    `${settings.open} open tasks, ${settings.connections} connections; drain of ${settings.drain} one-second tasks.`,
    '',
    '| storage | submit req/s | submit p50/p99 ms | fetch req/s (load) | fetch p50/p99 ms | fetch CPU µs/req | fetch at a set rate (open loop): req/s (share of the closed loop rate): p50/p99/max ms | event-loop delay while fetching, worst second p99 / max ms (the part the gateway CPU made) | GC while fetching: scavenges/s, longest; mark-compacts/s, longest ms | list 100 ids req/s | list p50/p99 ms | loop CPU with open tasks | drain tasks/s (s) | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const pacedCell = r.fetchPaced.map((paced) => `${paced.rps} (${Math.round(paced.share * 100)} %): ${paced.p50Ms}/${paced.p99Ms}/${paced.maxMs}`).join('; ') || '–';
    const errors = [r.submit, r.fetch, ...r.fetchPaced, r.list100].reduce((n, s) => n + s.non2xx + s.errors, 0);
    const loop = r.fetch.loop;
    const delay = loop ? `${loop.p99Ms} / ${loop.maxMs} (${loop.busyP99Ms} / ${loop.busyMaxMs})` : '–';
    const gc = loop ? `${loop.minor.perSecond}, ${loop.minor.maxMs}; ${loop.major.perSecond}, ${loop.major.maxMs}` : '–';
    lines.push(
      `| ${r.label} | ${r.submit.rps} | ${r.submit.p50Ms}/${r.submit.p99Ms} | ${r.fetch.rps} (${r.fetch.tool}) | ${r.fetch.p50Ms}/${r.fetch.p99Ms} | ${r.fetch.cpuUsPerRequest} | ${pacedCell} | ${delay} | ${gc} | ${r.list100.rps} | ${r.list100.p50Ms}/${r.list100.p99Ms} | ${r.idleCpuPercent}% | ${r.drain.perSecond} (${r.drain.seconds}) | ${errors} |`,
    );
  }
  return lines.join('\n');
}

runOnBothEngines({
  compile,
  runEngine,
  markdown,
  pgUrl: process.env.BENCH_TASKS_PG_URL,
  outFile: process.env.BENCH_TASKS_OUT,
  jsonFile: process.env.BENCH_TASKS_JSON,
  children,
  cleanups,
});
