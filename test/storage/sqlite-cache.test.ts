/**
 * The SQLite page cache is SQLite's own 2 MB unless set: better-sqlite3's
 * build would let it grow to 16 MB, which under load was most of the
 * gateway's memory above the floor proxy's (bench/README.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { openStore } from '../../src/storage/open.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function cacheSizeOf(sqliteCacheMb?: number): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-cache-'));
  dirs.push(dataDir);
  const store = await openStore({ dataDir, sqliteCacheMb });
  try {
    const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
    return rows[0].cache_size;
  } finally {
    await store.close();
  }
}

describe('the SQLite page cache', () => {
  it('is 2 MB by default (negative: KiB)', async () => {
    expect(await cacheSizeOf()).toBe(-2048);
  });

  it('follows SWITCHYARD_SQLITE_CACHE_MB', async () => {
    expect(settingsFromEnv({}).sqliteCacheMb).toBe(2);
    const settings = settingsFromEnv({ SWITCHYARD_SQLITE_CACHE_MB: '16' });
    expect(await cacheSizeOf(settings.sqliteCacheMb)).toBe(-16384);
  });
});
