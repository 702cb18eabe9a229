/**
 * What `npm start` runs: the bundled server, started as its own process on
 * the embedded default, serving a Messages client, and stopping cleanly on
 * SIGTERM.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
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

it('starts, prints its first-start keys, serves, and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], {
    env: { ...process.env, SWITCHYARD_PORT: '0', SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (let i = 0; i < 200 && !/Client API key/.test(output); i++) await new Promise((r) => setTimeout(r, 25));
    const url = /listening on (http:\/\/[^ ]+)/.exec(output)?.[1];
    const clientKey = /Client API key "default".*: (\S+)/.exec(output)?.[1];
    expect(output).toMatch(/Admin key .*: sk-admin-/);
    expect(url).toBeDefined();
    expect(clientKey).toBeDefined();

    const client = new Anthropic({ baseURL: url, apiKey: clientKey, maxRetries: 0 });
    const message = await client.messages.create({ model: 'bundle-model', max_tokens: 100, messages: [{ role: 'user', content: 'from the bundle' }] });
    expect(JSON.stringify(message.content)).toContain('from the bundle');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 30_000);
