/**
 * What `npm start` runs: the bundled server, started as its own process on
 * the embedded default, serving a Messages client, and stopping cleanly on
 * SIGTERM; and the V8 code cache it starts from (scripts/gateway-loader.mjs):
 * written by the build, used only for the bundle it was made from.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';

const run = promisify(execFile);
const outdir = path.join('dist', `bundle-test-${process.pid}`);
let dataDir: string;

beforeAll(async () => {
  await run(process.execPath, ['scripts/bundle.mjs', outdir]);
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bundle-'));
}, 60_000);
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** The built bundle started on `data`: its process, everything it printed so far, and its exit code to come. */
function startBundle(data: string) {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], {
    env: { ...process.env, SWITCHYARD_PORT: '0', SWITCHYARD_DATA_DIR: data, SWITCHYARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = { child, output: '', exited: new Promise<number | null>((resolve) => child.once('exit', resolve)) };
  child.stdout.on('data', (chunk) => (started.output += chunk));
  child.stderr.on('data', (chunk) => (started.output += chunk));
  return started;
}

/** One start and stop of the bundle, on a data directory of its own. */
async function startAndStop(): Promise<{ code: number | null; output: string }> {
  const ownData = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bundle-cache-'));
  const started = startBundle(ownData);
  for (let i = 0; i < 400 && !/listening on/.test(started.output); i++) await new Promise((r) => setTimeout(r, 25));
  // One answer first: by then the gateway has its SIGTERM handler (set right after it prints the address).
  const url = /listening on (http:\/\/[^ ]+)/.exec(started.output)?.[1];
  if (url) await fetch(`${url}/healthz`).then((response) => response.text());
  started.child.kill('SIGTERM');
  const code = await started.exited;
  await rm(ownData, { recursive: true, force: true });
  return { code, output: started.output };
}

it('builds the code cache for this very bundle, and replaces a cache made from another', async () => {
  const cacheFile = path.join(outdir, 'gateway.cjs.cache');
  const digest = createHash('sha256')
    .update(await readFile(path.join(outdir, 'gateway.cjs')))
    .digest();
  const built = await readFile(cacheFile);
  expect(built.subarray(0, digest.length).equals(digest)).toBe(true);
  expect(built.length).toBeGreaterThan(100_000);

  // A cache from another build (another hash) is not given to V8; the gateway compiles and writes its own at exit.
  const foreign = Buffer.from(built);
  foreign[0] ^= 0xff;
  await writeFile(cacheFile, foreign);
  const { code, output } = await startAndStop();
  expect(output).toMatch(/listening on/);
  expect(code).toBe(0);
  const rewritten = await readFile(cacheFile);
  expect(rewritten.subarray(0, digest.length).equals(digest)).toBe(true);
}, 30_000);

it('starts from the cache the build made, without writing another', async () => {
  // A rejected cache (flags set after the check, say, which V8 records in it) would be rewritten at every exit.
  const cacheFile = path.join(outdir, 'gateway.cjs.cache');
  const built = await readFile(cacheFile);
  const { code, output } = await startAndStop();
  expect(output).toMatch(/listening on/);
  expect(code).toBe(0);
  expect((await readFile(cacheFile)).equals(built)).toBe(true);
}, 30_000);

it('starts, prints its first-start keys, serves, and exits 0 on SIGTERM', async () => {
  const started = startBundle(dataDir);
  try {
    for (let i = 0; i < 200 && !/Client API key/.test(started.output); i++) await new Promise((r) => setTimeout(r, 25));
    const url = /listening on (http:\/\/[^ ]+)/.exec(started.output)?.[1];
    const clientKey = /Client API key "default".*: (\S+)/.exec(started.output)?.[1];
    expect(started.output).toMatch(/Admin key .*: sk-admin-/);
    expect(url).toBeDefined();
    expect(clientKey).toBeDefined();

    const client = new Anthropic({ baseURL: url, apiKey: clientKey, maxRetries: 0 });
    const message = await client.messages.create({ model: 'bundle-model', max_tokens: 100, messages: [{ role: 'user', content: 'from the bundle' }] });
    expect(JSON.stringify(message.content)).toContain('from the bundle');
  } finally {
    started.child.kill('SIGTERM');
  }
  expect(await started.exited).toBe(0);
}, 30_000);
