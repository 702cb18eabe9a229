/**
 * Which better-sqlite3 the gateway opens SQLite with (storage/sqlite-driver.ts):
 * 12 on Node 20, 13 (Node-API) from Node 22, where 12's statements abort the
 * process when V8 collects them outside JavaScript (Node 24.19+). The suite
 * runs on Node 20; test/node24/run.sh runs this file again on Node 24.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { openSqliteFile, sqliteDriver, sqliteDriverFor } from '../../src/storage/sqlite-driver.js';

const run = promisify(execFile);

it('picks better-sqlite3 12 on Node 20 and 13 from Node 22 on', () => {
  for (const version of ['20.18.1', '20.20.2', 'v20.0.0']) expect(sqliteDriverFor(version)).toBe('better-sqlite3-node20');
  for (const version of ['22.0.0', '22.12.0', '24.19.0', 'v24.21.0', '25.0.0', '26.0.0', '30.1.0']) expect(sqliteDriverFor(version)).toBe('better-sqlite3');
});

it('opens SQLite with the driver for the running Node, of the major version that Node needs', async () => {
  expect(sqliteDriver).toBe(sqliteDriverFor(process.versions.node));
  const manifest = createRequire(import.meta.url).resolve(`${sqliteDriver}/package.json`);
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  expect(version.split('.')[0]).toBe(Number(process.versions.node.split('.')[0]) >= 22 ? '13' : '12');
  const file = openSqliteFile(':memory:');
  try {
    expect(file.prepare('select sqlite_version() as v').get()).toEqual({ v: expect.stringMatching(/^3\./) });
  } finally {
    file.close();
  }
});

it('survives thousands of evicted statements and a full collection outside JavaScript', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-sqlite-churn-'));
  try {
    const script = path.join('test', 'storage', 'sqlite-statement-churn.ts');
    const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', script, dataDir]);
    expect(stdout).toBe('survived\n');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
