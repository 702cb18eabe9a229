/**
 * Benchmark of the video family (`node bench/videos-throughput.mjs`):
 *
 * 1. create throughput: BENCH_VIDEOS_CREATES `POST /v1/videos` (default
 *    5,000) at BENCH_VIDEOS_CONNECTIONS (50), as JSON and as multipart with a
 *    small reference PNG, against a simulator channel whose tasks stay open;
 *    then `GET /v1/videos/{id}` of random open videos;
 * 2. render: BENCH_VIDEOS_RENDERED (20) four-second videos at the simulator's
 *    default size (320 px long side) created at once and timed until the last
 *    one succeeded (the encoder thread's rate);
 * 3. content download throughput: BENCH_VIDEOS_DOWNLOADS (5,000) downloads of
 *    those MP4s through `/v1/videos/{id}/content`, the same with a 64 KiB byte
 *    range, and through the keyless `url`.
 *
 * On SQLite, and on PostgreSQL when BENCH_VIDEOS_PG_URL is set (or the test
 * database at postgres://127.0.0.1:5432/test answers). The gateway runs as
 * its own process, compiled from src/ into a temporary directory (or the
 * entry named by BENCH_VIDEOS_ENTRY). Loopback only; every load is bounded
 * by a request count. The report is printed as markdown, and written to
 * BENCH_VIDEOS_OUT when set.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { compileGateway, runOnBothEngines, startGateway as startTaskGateway, stopGateway } from './lib/task-harness.mjs';
import { PNG } from 'pngjs';

const knob = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const settings = {
  creates: knob('BENCH_VIDEOS_CREATES', 5_000),
  connections: knob('BENCH_VIDEOS_CONNECTIONS', 50),
  rendered: knob('BENCH_VIDEOS_RENDERED', 20),
  downloads: knob('BENCH_VIDEOS_DOWNLOADS', 5_000),
};
const KEY = 'sk-bench-videos-0123456789';
const ADMIN = `sk-admin-${randomBytes(8).toString('hex')}`;
const children = new Set();
const cleanups = [];

function compile() {
  return compileGateway(cleanups, process.env.BENCH_VIDEOS_ENTRY);
}

async function startGateway(entry, env) {
  return startTaskGateway({
    entry,
    config: {
      channels: [
        { name: 'open', type: 'simulator', models: ['bench-open'], settings: { taskSeconds: 3600 } },
        { name: 'render', type: 'simulator', models: ['bench-render'], settings: { taskSeconds: 0.5 } },
      ],
      keys: [{ name: 'bench', key: KEY }],
      prices: { 'bench-*': { perSecond: 0.001 } },
    },
    env: { SWITCHYARD_TASK_FIRST_POLL_MS: '200', ...env },
    nodeArgs: [],
    adminKey: ADMIN,
    children,
    cleanups,
  });
}

/** A multipart create body with a small PNG reference, built once. */
function multipartCreate() {
  const png = new PNG({ width: 32, height: 32 });
  png.data.fill(128);
  const boundary = '----benchboundary0123456789';
  const field = (name, value) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('model', 'bench-open') + field('prompt', 'bench video') + field('seconds', '4') + field('size', '720x1280')),
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="input_reference"; filename="ref.png"\r\ncontent-type: image/png\r\n\r\n`),
    PNG.sync.write(png),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function load({ url, method = 'POST', body, contentType = 'application/json', amount, path, headers = {}, auth = true }) {
  return new Promise((done, fail) => {
    const request = {
      method,
      headers: { ...(auth ? { authorization: `Bearer ${KEY}` } : {}), ...(body ? { 'content-type': contentType } : {}), ...headers },
    };
    if (body) request.body = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    if (path) request.setupRequest = (req) => ({ ...req, path: path() });
    const ids = [];
    request.onResponse = (status, responseBody) => {
      if (status !== 201 || !responseBody || responseBody[0] !== '{') return;
      ids.push(JSON.parse(responseBody).id);
    };
    autocannon({ url, amount, connections: Math.min(settings.connections, amount), timeout: 60, sampleInt: 50, requests: [request] }, (error, result) => (error ? fail(error) : done({ result, ids })));
  });
}

const summary = ({ result }) => ({
  requests: result.requests.total,
  rps: Math.round(result.requests.total / result.duration),
  mbPerSecond: Math.round((result.throughput.total / result.duration / 1e6) * 10) / 10,
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
  const videos = [];
  for (const id of ids) {
    for (;;) {
      const video = await (await fetch(`${url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${KEY}` } })).json();
      if (video.status === 'succeeded') {
        videos.push(video);
        break;
      }
      if (video.status === 'failed') throw new Error(`video ${id} failed: ${video.error?.message}`);
      if (Date.now() > deadline) throw new Error(`video ${id} still ${video.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return videos;
}

async function runEngine(label, entry, env) {
  const { child, url } = await startGateway(entry, env);
  try {
    const cpuBefore = cpuMs(child.pid);
    const json = await load({ url: `${url}/v1/videos`, amount: settings.creates, body: { model: 'bench-open', prompt: 'bench video', seconds: '4' } });
    const createCpuMs = (cpuMs(child.pid) - cpuBefore) / Math.max(1, json.ids.length);
    const form = multipartCreate();
    const multipart = await load({ url: `${url}/v1/videos`, amount: Math.max(1, Math.round(settings.creates / 5)), body: form.body, contentType: form.contentType });
    const open = json.ids;
    const pick = (list) => list[Math.floor(Math.random() * list.length)];
    const retrieve = await load({ url: `${url}/v1/videos/x`, method: 'GET', amount: settings.creates, path: () => `/v1/videos/${pick(open)}` });

    const started = Date.now();
    const render = await load({ url: `${url}/v1/videos`, amount: settings.rendered, body: { model: 'bench-render', prompt: 'rendered', seconds: '4' } });
    const videos = await waitAllDone(url, render.ids, 600_000);
    const renderS = (Date.now() - started) / 1000;
    const ids = videos.map((video) => video.id);
    const files = videos.map((video) => new URL(video.url).pathname);
    const sizes = await Promise.all(ids.map(async (id) => (await fetch(`${url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer()));
    const meanBytes = Math.round(sizes.reduce((sum, bytes) => sum + bytes.byteLength, 0) / sizes.length);

    const content = await load({ url: `${url}/v1/videos/x/content`, method: 'GET', amount: settings.downloads, path: () => `/v1/videos/${pick(ids)}/content` });
    const ranged = await load({
      url: `${url}/v1/videos/x/content`,
      method: 'GET',
      amount: settings.downloads,
      path: () => `/v1/videos/${pick(ids)}/content`,
      headers: { range: 'bytes=0-65535' },
    });
    const keyless = await load({ url: `${url}/v1/videos/files/x`, method: 'GET', amount: settings.downloads, path: () => pick(files), auth: false });
    return {
      label,
      createJson: summary(json),
      createCpuMs: Math.round(createCpuMs * 1000) / 1000,
      createMultipart: summary(multipart),
      retrieve: summary(retrieve),
      render: { videos: ids.length, seconds: Math.round(renderS * 10) / 10, perSecond: Math.round((ids.length / renderS) * 10) / 10, meanBytes },
      content: summary(content),
      ranged: summary(ranged),
      keyless: summary(keyless),
    };
  } finally {
    await stopGateway(child);
  }
}

function markdown(rows) {
  const cell = (s) => `${s.rps} | ${s.p50Ms}/${s.p99Ms}`;
  const lines = [
    `# Video family benchmark (${new Date().toISOString()}, ${os.cpus().length} CPUs, Node ${process.version})`,
    '',
    `${settings.connections} connections; ${settings.creates} JSON creates, ${Math.round(settings.creates / 5)} multipart creates, ${settings.creates} retrieves; ${settings.rendered} rendered 4 s videos; ${settings.downloads} downloads per kind.`,
    '',
    '| storage | create JSON req/s | p50/p99 ms | CPU ms per create | create multipart req/s | p50/p99 ms | retrieve req/s | p50/p99 ms | render videos/s (s, mean bytes) | content req/s | MB/s | p50/p99 ms | 64 KiB range req/s | p50/p99 ms | keyless url req/s | p50/p99 ms | errors |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const runs = [r.createJson, r.createMultipart, r.retrieve, r.content, r.ranged, r.keyless];
    const errors = runs.reduce((n, s) => n + s.non2xx + s.errors, 0);
    lines.push(
      `| ${r.label} | ${cell(r.createJson)} | ${r.createCpuMs} | ${cell(r.createMultipart)} | ${cell(r.retrieve)} | ${r.render.perSecond} (${r.render.seconds}, ${r.render.meanBytes}) | ${r.content.rps} | ${r.content.mbPerSecond} | ${r.content.p50Ms}/${r.content.p99Ms} | ${cell(r.ranged)} | ${cell(r.keyless)} | ${errors} |`,
    );
  }
  return lines.join('\n');
}

runOnBothEngines({
  compile,
  runEngine,
  markdown,
  pgUrl: process.env.BENCH_VIDEOS_PG_URL,
  outFile: process.env.BENCH_VIDEOS_OUT,
  children,
  cleanups,
});
