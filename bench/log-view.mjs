/**
 * The console's reads at scale (`node bench/log-view.mjs`): BENCH_LOG_ROWS
 * request-log rows (default 1,000,000, over 30 days; 40 keys, a few busy and
 * many quiet, each using one or two of 24 models; a model belongs to one
 * family and one of 6 channels; about 4 % errors) are written through the storage
 * layer (so the per-minute usage sums are written as the gateway writes
 * them), then a gateway on that database answers the admin API's log pages,
 * filters, cursor pages, one request's detail and the usage series, each
 * BENCH_LOG_RUNS times (default 15; median and worst reported), and the
 * gateway's RSS is read before and after. On SQLite, and on PostgreSQL when
 * the test database answers (or BENCH_LOG_PG_URL). BENCH_LOG_OUT: also write
 * the report there.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileGateway, runOnBothEngines, startGateway, stopGateway } from './lib/task-harness.mjs';

const ROWS = Number(process.env.BENCH_LOG_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_LOG_RUNS ?? 15);
const ADMIN = `sk-admin-${randomBytes(8).toString('hex')}`;
const DAY = 86_400_000;
const children = new Set();
const cleanups = [];

const families = ['messages', 'chat-completions', 'responses', 'generate', 'embeddings', 'images', 'videos'];
const pick = (list, n) => list[n % list.length];

/** Deterministic rows, oldest first, evenly spread over the last 30 days. */
function rowsFrom(start, count, now) {
  const rows = [];
  for (let i = start; i < start + count; i++) {
    const createdAt = now - 30 * DAY + Math.floor((i * 30 * DAY) / ROWS);
    const failed = i % 25 === 0;
    const tried = i % 40 === 0 ? ['ch-1', 'ch-2'] : [`ch-${i % 6}`];
    // A skewed key (a few keys carry most traffic), and models that follow the key.
    const spread = ((i * 2654435761) % 4294967296) / 4294967296;
    const key = Math.floor(40 * spread * spread);
    const model = (key * 7 + (i % 3 === 0 ? 1 : 0)) % 24;
    rows.push({
      id: `log_${String(i).padStart(9, '0')}`,
      requestId: `req_${i}`,
      keyId: `key_${key}`,
      family: pick(families, model),
      model: `model-${model}`,
      upstreamModel: `upstream-${model}`,
      channelId: failed ? null : `chn_${model % 6}`,
      triedChannels: tried,
      httpStatus: failed ? pick([429, 500, 502, 400], i) : 200,
      errorKind: failed ? 'rate_limited' : null,
      errorMessage: failed ? 'the upstream said no' : null,
      stream: i % 2 === 0,
      inputTokens: 200 + (i % 900),
      outputTokens: 50 + (i % 400),
      cacheReadTokens: i % 3 === 0 ? 100 : 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      estimated: false,
      cost: 0.0004 + (i % 7) * 0.0001,
      latencyMs: 80 + (i % 2000),
      firstByteMs: i % 2 === 0 ? 40 + (i % 500) : null,
      clientIp: '10.0.0.1',
      translation: i % 5 === 0 ? 'mapped=system; ignored=top_k' : null,
      attempts: tried.map((channel, n) => ({
        channel,
        channelId: `chn_${n}`,
        at: createdAt - 100,
        durationMs: 50,
        status: n === tried.length - 1 ? 200 : 503,
        errorKind: n === tried.length - 1 ? null : 'unavailable',
        message: null,
      })),
      createdAt,
    });
  }
  return rows;
}

async function seed(openStore, options) {
  const store = await openStore(options);
  const now = Date.now();
  const started = performance.now();
  for (let start = 0; start < ROWS; start += 5_000) await store.logs.insertMany(rowsFrom(start, Math.min(5_000, ROWS - start), now));
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return seconds;
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function timed(url, path) {
  const times = [];
  let body;
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const response = await fetch(`${url}/admin${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
    body = await response.json();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    if (run > 0) times.push(performance.now() - started); // the first run warms caches and is not counted
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], worst: times[times.length - 1], body };
}

async function measure(label, entry, env) {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'switchyard-bench-logs-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const { openStore } = await import(pathToFileURL(join(dirname(entry), 'storage', 'open.js')).href);
  const seedSeconds = await seed(openStore, { dataDir, databaseUrl: env.SWITCHYARD_DATABASE_URL, schema: env.SWITCHYARD_DATABASE_SCHEMA });
  const { child, url } = await startGateway({ entry, config: {}, env: { ...env, SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SIMULATOR: 'off' }, adminKey: ADMIN, children, cleanups });
  const rssBefore = rssOf(child.pid);
  const now = Date.now();
  const results = [];
  const run = async (name, path) => {
    const result = await timed(url, path);
    results.push({ name, path, median: result.median, worst: result.worst });
    return result.body;
  };
  const first = await run('logs: newest page (100)', '/logs');
  await run('logs: by a busy key', '/logs?keyId=key_0');
  await run('logs: by a quiet key', '/logs?keyId=key_39');
  await run('logs: by model', '/logs?model=model-8');
  await run('logs: by channel', '/logs?channelId=chn_2');
  await run('logs: by family', '/logs?family=embeddings');
  await run('logs: errors only', '/logs?status=error');
  await run('logs: one status (502)', '/logs?status=502');
  await run('logs: key and model', '/logs?keyId=key_5&model=model-12');
  await run('logs: last hour', `/logs?since=${now - 3_600_000}`);
  await run('logs: a day, 10 days ago', `/logs?since=${now - 11 * DAY}&until=${now - 10 * DAY}`);
  let cursor = first.nextCursor;
  for (let page = 0; page < 49 && cursor; page++) cursor = (await timed(url, `/logs?cursor=${cursor}`)).body.nextCursor;
  // A small BENCH_LOG_ROWS has fewer pages: the deep page is then the last one there is.
  if (cursor) await run('logs: page 51 by cursor', `/logs?cursor=${cursor}`);
  await run('logs: one request’s detail', `/logs/${first.data[0].id}`);
  await run('series: 24 h, one series', '/usage/series');
  await run('series: 24 h by model', '/usage/series?by=model');
  await run('series: 24 h of one key, per minute', `/usage/series?keyId=key_3&step=60000&since=${now - DAY}`);
  await run('series: 7 days by channel', `/usage/series?by=channel&since=${now - 7 * DAY}`);
  await run('series: 30 days by key', `/usage/series?by=key&since=${now - 30 * DAY}`);
  await run('usage: totals per key and model, 30 days', `/usage?since=${now - 30 * DAY}`);
  const rssAfter = rssOf(child.pid);
  await stopGateway(child);
  return { label, rows: ROWS, seedSeconds, rssBefore, rssAfter, results };
}

function markdown(reports) {
  const lines = [`Console reads over ${ROWS.toLocaleString('en-US')} request-log rows (median and worst of ${RUNS} runs, ms, through the admin API):`, ''];
  lines.push(`| query | ${reports.map((r) => `${r.label} median | worst`).join(' | ')} |`);
  lines.push(`|---|${reports.map(() => '---:|---:').join('|')}|`);
  for (const [index, { name }] of reports[0].results.entries()) {
    lines.push(`| ${name} | ${reports.map((r) => `${r.results[index].median.toFixed(1)} | ${r.results[index].worst.toFixed(1)}`).join(' | ')} |`);
  }
  lines.push('');
  for (const r of reports) lines.push(`${r.label}: seeded in ${r.seedSeconds.toFixed(1)} s; gateway RSS ${r.rssBefore.toFixed(0)} MB at start, ${r.rssAfter.toFixed(0)} MB after the queries.`);
  return lines.join('\n');
}

runOnBothEngines({
  compile: () => compileGateway(cleanups, process.env.BENCH_LOG_ENTRY),
  runEngine: measure,
  markdown,
  pgUrl: process.env.BENCH_LOG_PG_URL,
  outFile: process.env.BENCH_LOG_OUT,
  children,
  cleanups,
});
