/**
 * Traces in what `npm start` runs: the OpenTelemetry SDK sits in a chunk the
 * bundle reaches only through `import()` (a start without traces never loads
 * it), and the bundled server with an endpoint set exports its spans, the
 * last ones when it stops on SIGTERM.
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

/** Every file a bundle file loads by static `import`, itself included. */
async function staticClosure(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    // `from"./x.js"` and `import"./x.js"`; `import("./x.js")` (loaded on demand) has a parenthesis and is left out.
    for (const match of text.matchAll(/(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g)) pending.push(path.join(path.dirname(file), match[1]));
  }
  return seen;
}

it('keeps the SDK out of everything the server loads at start', async () => {
  const atStart = await staticClosure(path.join(outdir, 'main.js'));
  const chunks = (await readdir(path.join(outdir, 'chunks'))).filter((name) => name.endsWith('.js')).map((name) => path.join(outdir, 'chunks', name));
  const withSdk: string[] = [];
  for (const file of [path.join(outdir, 'main.js'), ...chunks]) {
    const text = await readFile(file, 'utf8');
    if (SDK_MARKERS.every((marker) => text.includes(marker))) withSdk.push(file);
  }
  expect(withSdk).toHaveLength(1);
  expect(atStart.has(withSdk[0])).toBe(false);
  for (const file of atStart) {
    const text = await readFile(file, 'utf8');
    for (const marker of SDK_MARKERS) expect(text.includes(marker), `${file} holds ${marker}`).toBe(false);
  }
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
