/**
 * WAL checkpoints on their own thread: the gateway's connection never
 * checkpoints, yet the WAL stays bounded because the worker does; stopping
 * the worker lets the last connection's close checkpoint and remove the WAL;
 * a worker that cannot start hands checkpoints back to the connection.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointInBackground } from '../../src/storage/sqlite-checkpoints.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function openWal(): { db: Database.Database; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchyard-wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'test.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table rows (id integer primary key, body text)');
  return { db, file };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const walBytes = (file: string) => (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
const writeRows = (db: Database.Database) => {
  const insert = db.prepare('insert into rows (body) values (?)');
  db.transaction(() => {
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(500));
  })();
};

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('SQLite checkpoints in the background', () => {
  it('keep the WAL bounded while the connection itself never checkpoints', async () => {
    const { db, file } = openWal();
    const checkpoints = checkpointInBackground(db, file, { startAfterMs: 0, intervalMs: 10 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    let largest = 0;
    for (let round = 0; round < 40; round++) {
      writeRows(db);
      largest = Math.max(largest, walBytes(file));
      await sleep(25);
    }
    // 40 rounds of ~100 kB each: a WAL never checkpointed would pass 4 MB.
    expect(largest).toBeLessThan(1_500_000);
    await checkpoints.stop();
    db.close();
    // The worker's connection is closed too, so the last close checkpointed and removed the WAL.
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(new Database(file).prepare('select count(*) as n from rows').get()).toEqual({ n: 8_000 });
  });

  it('without the worker the WAL would grow (the bound above is the worker\'s doing)', () => {
    const { db, file } = openWal();
    db.pragma('wal_autocheckpoint = 0');
    for (let round = 0; round < 40; round++) writeRows(db);
    expect(walBytes(file)).toBeGreaterThan(4_000_000);
    db.close();
  });

  it('hand checkpoints back to the connection when the worker cannot start', async () => {
    const { db } = openWal();
    const warnings: unknown[] = [];
    const checkpoints = checkpointInBackground(db, path.join(os.tmpdir(), 'switchyard-no-such-dir', 'missing.db'), {
      startAfterMs: 0,
      logger: { warn: (...args: unknown[]) => void warnings.push(args) },
    });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await until(() => db.pragma('wal_autocheckpoint', { simple: true }) === 1_000);
    expect(warnings.length).toBeGreaterThan(0);
    await checkpoints.stop();
    db.close();
  });
});
