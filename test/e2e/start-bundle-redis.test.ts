/**
 * The scale-out `npm start` runs: two bundled servers, each its own process,
 * on one PostgreSQL schema and one Redis, sharing a key's rate limit. The
 * bundle once failed here at startup (the Redis client's CommonJS export was
 * lost by bundling) while every in-process test passed.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresConnection } from '../../src/storage/postgres-connection.js';
import { postgresUrl, skipPostgres } from '../storage/engines.js';

const run = promisify(execFile);
const redisUrl = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const outdir = path.join('dist', `bundle-redis-test-${process.pid}`);
const schema = `bundle_${randomBytes(6).toString('hex')}`;
const secret = `sk-bundle-redis-${randomBytes(6).toString('hex')}`;
let workDir: string;

beforeAll(async () => {
  await run(process.execPath, ['scripts/bundle.mjs', outdir]);
  workDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bundle-redis-'));
  await writeFile(path.join(workDir, 'switchyard.yaml'), `keys:\n  - name: shared\n    key: ${secret}\n    rpm: 3\n`);
}, 60_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
  if (skipPostgres) return;
  const client = new pg.Client(postgresConnection(postgresUrl));
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
});

async function startBundle(): Promise<{ url: string; child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [path.join(outdir, 'main.js')], {
    env: {
      ...process.env,
      SWITCHYARD_PORT: '0',
      SWITCHYARD_DATA_DIR: workDir,
      SWITCHYARD_CONFIG: path.join(workDir, 'switchyard.yaml'),
      SWITCHYARD_DATABASE_URL: postgresUrl,
      SWITCHYARD_DATABASE_SCHEMA: schema,
      SWITCHYARD_REDIS_URL: redisUrl,
      SWITCHYARD_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let url: string | undefined;
  for (let i = 0; i < 400 && url === undefined && child.exitCode === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    url = /listening (?:on|at) (http:\/\/[^ "]+)/.exec(output)?.[1];
  }
  if (url === undefined) {
    child.kill('SIGTERM');
    throw new Error(`the bundle did not start:\n${output}`);
  }
  return { url, child, exited };
}

function messages(url: string): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': secret, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] }),
  });
}

describe.skipIf(skipPostgres)('the bundle with Redis', () => {
  it('starts two instances that share one key’s rate limit, and both exit 0 on SIGTERM', async () => {
    const first = await startBundle();
    const second = await startBundle();
    try {
      const statuses: number[] = [];
      for (const instance of [first, second, first, second]) statuses.push((await messages(instance.url)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      first.child.kill('SIGTERM');
      second.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    expect(await second.exited).toBe(0);
  }, 60_000);
});
