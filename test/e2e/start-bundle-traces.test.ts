/**
 * Traces in what `npm start` runs: the bundle reaches the OpenTelemetry SDK
 * only through `import()` (a start without traces never evaluates it), and
 * the bundled server with an endpoint set exports its spans, the last ones
 * when it stops on SIGTERM.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';

const run = promisify(execFile);
const outdir = path.join('dist', `bundle-traces-test-${process.pid}`);
/** Environment variables only the SDK's span processor and tracer provider read: present in its code alone. */
const SDK_MARKERS = ['OTEL_BSP_SCHEDULE_DELAY', 'OTEL_TRACES_SAMPLER'];
let dataDir: string;
let receiver: OtlpReceiver;

beforeAll(async () => {
  await run(process.execPath, ['scripts/bundle.mjs', outdir]);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bundle-traces-'));
  receiver = await startOtlpReceiver();
}, 60_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  await receiver?.close();
});

/** Every source file under `dir`, recursively. */
async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)])));
  return nested.flat().filter((file) => file.endsWith('.ts'));
}

/**
 * The gateway is one script (gateway.cjs, run from V8's code cache by main.js); the tracing module,
 * which the sources reach only through `import()`, is built into tracing.cjs beside it and required
 * only when that import runs. So the SDK stays out of a start without traces, not even read, as long
 * as the sources reach it only that way.
 */
it('keeps the SDK behind import(), in a file of its own', async () => {
  const sdk = /from '@opentelemetry\/(sdk-|exporter-|resources|core)/;
  const importers: string[] = [];
  const tracingImports: string[] = [];
  for (const file of await sourceFiles('src')) {
    const text = await readFile(file, 'utf8');
    if (sdk.test(text)) importers.push(path.relative('src', file));
    for (const match of text.matchAll(/(import\(|from )'[./]*\/?(observe\/)?tracing\.js'/g)) tracingImports.push(`${path.relative('src', file)}: ${match[1]}`);
  }
  expect(importers).toEqual(['observe/tracing.ts']);
  expect(tracingImports).toEqual(['server/bootstrap.ts: import(']);
  // The SDK is in tracing.cjs, which the gateway's script requires at that import; not in the script, nor in the loader.
  const tracing = await readFile(path.join(outdir, 'tracing.cjs'), 'utf8');
  for (const marker of SDK_MARKERS) expect(tracing.includes(marker), `tracing.cjs holds ${marker}`).toBe(true);
  const gateway = await readFile(path.join(outdir, 'gateway.cjs'), 'utf8');
  expect(gateway).toContain('require("./tracing.cjs")');
  for (const marker of SDK_MARKERS) expect(gateway.includes(marker), `gateway.cjs holds ${marker}`).toBe(false);
  const loader = await readFile(path.join(outdir, 'main.js'), 'utf8');
  for (const marker of SDK_MARKERS) expect(loader.includes(marker)).toBe(false);
});

it('exports spans from the bundled server, flushing them when it stops', async () => {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], {
    env: { ...process.env, SWITCHYARD_PORT: '0', SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'warn', SWITCHYARD_OTLP_TRACES_ENDPOINT: receiver.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let requestId: string | null = null;
  try {
    for (let i = 0; i < 200 && !/Client API key/.test(output); i++) await new Promise((r) => setTimeout(r, 25));
    const url = /listening on (http:\/\/[^ ]+)/.exec(output)?.[1];
    const clientKey = /Client API key "default".*: (\S+)/.exec(output)?.[1];
    expect(url).toBeDefined();
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': clientKey!, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bundle-model', max_tokens: 20, messages: [{ role: 'user', content: 'traced from the bundle' }] }),
    });
    await response.text();
    expect(response.status).toBe(200);
    requestId = response.headers.get('x-request-id');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  // The span processor waits seconds between batches; the span is there because the stop flushed it.
  const span = receiver.spans.find((candidate) => candidate.attributes['switchyard.request_id'] === requestId);
  expect(span).toMatchObject({ name: 'POST /v1/messages', attributes: { 'gen_ai.request.model': 'bundle-model', 'gen_ai.provider.name': 'simulator' } });
  expect(span?.resource['service.name']).toBe('switchyard');
}, 30_000);
