/**
 * Benchmark of batches (`node bench/batches.mjs`): what a running batch
 * costs interactive traffic, and how fast the batch goes.
 *
 * 1. interactive alone: BENCH_BATCH_INTERACTIVE (2,000) plain Chat
 *    Completions requests at BENCH_BATCH_CONNECTIONS (8) at once, p50/p99,
 *    after as many as a warm-up;
 * 2. a BENCH_BATCH_LINES (10,000) line batch of the same request uploaded
 *    and created, and the same interactive load run while it runs; then
 *    the batch waited for until completed: its lines per second, from
 *    create to completed, and while the interactive load ran (the lines
 *    answered by its end).
 *
 * Against a simulator channel answering after BENCH_BATCH_LATENCY_MS (5), the
 * gateway at its default batch concurrency (BENCH_BATCH_CONCURRENCY to
 * change it), on SQLite and on PostgreSQL when the test database answers.
 * The gateway runs as its own process, compiled from src/ into a temporary
 * directory (or the entry named by BENCH_BATCH_ENTRY). Loopback only, every
 * load bounded by a request count. The report is printed as markdown, and
 * written to BENCH_BATCH_OUT when set.
 */
import { randomBytes } from 'node:crypto';
import { compileGateway, runOnBothEngines, startGateway } from './lib/task-harness.mjs';

const knob = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const settings = {
  interactive: knob('BENCH_BATCH_INTERACTIVE', 2_000),
  connections: knob('BENCH_BATCH_CONNECTIONS', 8),
  lines: knob('BENCH_BATCH_LINES', 10_000),
  latencyMs: knob('BENCH_BATCH_LATENCY_MS', 5),
  concurrency: process.env.BENCH_BATCH_CONCURRENCY,
};
const KEY = 'sk-bench-batches-0123456789';
const ADMIN = `sk-admin-${randomBytes(8).toString('hex')}`;
const children = new Set();
const cleanups = [];
const auth = { authorization: `Bearer ${KEY}` };
const chatBody = (text) => ({ model: 'bench-batch', messages: [{ role: 'user', content: text }], max_tokens: 16 });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `count` requests, `connections` at a time; each one's latency in ms. */
async function interactive(url, count) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(chatBody(`interactive ${i}`)) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`interactive request answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: settings.connections }, worker));
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function createBatch(url) {
  const text = Array.from({ length: settings.lines }, (_, i) => JSON.stringify({ custom_id: `line-${i}`, method: 'POST', url: '/v1/chat/completions', body: chatBody(`batch ${i}`) })).join('\n');
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new Blob([text]), 'bench.jsonl');
  const file = await (await fetch(`${url}/v1/files`, { method: 'POST', headers: auth, body: form })).json();
  const started = performance.now();
  const created = await fetch(`${url}/v1/batches`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
  });
  const batch = await created.json();
  if (batch.status !== 'in_progress') throw new Error(`batch not running: ${JSON.stringify(batch).slice(0, 500)}`);
  return { id: batch.id, started };
}

async function finished(url, batch) {
  for (;;) {
    const read = await (await fetch(`${url}/v1/batches/${batch.id}`, { headers: auth })).json();
    if (read.status === 'completed') {
      if (read.request_counts.completed !== settings.lines) throw new Error(`batch completed with ${JSON.stringify(read.request_counts)}`);
      return (performance.now() - batch.started) / 1000;
    }
    if (['failed', 'expired', 'cancelled'].includes(read.status)) throw new Error(`batch ended ${read.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function runEngine(engine, entry, env) {
  const gateway = await startGateway({
    entry,
    adminKey: ADMIN,
    children,
    cleanups,
    config: {
      channels: [{ name: 'sim', type: 'simulator', models: ['bench-*'], settings: { latencyMs: settings.latencyMs } }],
      keys: [{ name: 'bench', key: KEY }],
      prices: { 'bench-*': { input: 1, output: 2 } },
    },
    env: { ...env, ...(settings.concurrency ? { SWITCHYARD_BATCH_CONCURRENCY: settings.concurrency } : {}) },
  });
  // A warm-up as long as a measurement: with a shorter one, the run alone still pays for the JIT's first passes.
  await interactive(gateway.url, settings.interactive);
  const alone = await interactive(gateway.url, settings.interactive);
  const batch = await createBatch(gateway.url);
  const during = await interactive(gateway.url, settings.interactive);
  const meanwhile = (performance.now() - batch.started) / 1000;
  const counts = (await (await fetch(`${gateway.url}/v1/batches/${batch.id}`, { headers: auth })).json()).request_counts;
  const seconds = await finished(gateway.url, batch);
  return { engine, alone, during, seconds, linesPerSecond: settings.lines / seconds, duringLinesPerSecond: counts.completed / meanwhile };
}

function markdown(rows) {
  const ms = (value) => value.toFixed(1);
  return [
    `Batches: ${settings.lines} lines, simulator latency ${settings.latencyMs} ms, batch concurrency ${settings.concurrency ?? 'default (4)'}; interactive: ${settings.interactive} Chat Completions requests, ${settings.connections} at once.`,
    '',
    '| engine | interactive p50 / p99 alone (ms) | with the batch running (ms) | batch lines/s | of which while the interactive load ran |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.engine} | ${ms(row.alone.p50)} / ${ms(row.alone.p99)} | ${ms(row.during.p50)} / ${ms(row.during.p99)} | ${row.linesPerSecond.toFixed(0)} | ${row.duringLinesPerSecond.toFixed(0)} |`,
    ),
  ].join('\n');
}

runOnBothEngines({
  compile: () => compileGateway(cleanups, process.env.BENCH_BATCH_ENTRY),
  runEngine,
  markdown,
  outFile: process.env.BENCH_BATCH_OUT,
  children,
  cleanups,
});
