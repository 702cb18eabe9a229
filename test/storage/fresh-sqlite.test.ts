/**
 * A new SQLite file gets the whole schema in one transaction
 * (storage/migrations/fresh-sqlite.ts) instead of running each migration: the
 * database must be the one the migrator makes, object for object, with the
 * same migrations recorded, or later migrations would start from another schema.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteFile } from '../../src/storage/sqlite-driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFreshSqliteSchema } from '../../src/storage/migrations/fresh-sqlite.js';
import { openStore } from '../../src/storage/open.js';
import { migratedSqliteSchema, readSqliteSchema } from '../../scripts/migrated-sqlite.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-fresh-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a fresh SQLite database', () => {
  it('is the database the migrator makes (else run: npx tsx scripts/fresh-sqlite-schema.ts)', async () => {
    const migrated = await migratedSqliteSchema();
    const file = openSqliteFile(join(tempDir(), 'fresh.db'));
    try {
      expect(createFreshSqliteSchema(file)).toBe(true);
      expect(readSqliteSchema(file)).toEqual(migrated);
    } finally {
      file.close();
    }
  });

  it('is created once: a database with tables is left to the migrator', async () => {
    const file = openSqliteFile(join(tempDir(), 'fresh.db'));
    try {
      expect(createFreshSqliteSchema(file)).toBe(true);
      expect(createFreshSqliteSchema(file)).toBe(false);
    } finally {
      file.close();
    }
  });

  it('opens as a store that later starts find fully migrated', async () => {
    const dataDir = tempDir();
    const first = await openStore({ dataDir });
    await first.settings.set('kept', 'yes');
    const names = (await first.db.selectFrom('kysely_migration').select(['name', 'timestamp']).execute()) as { name: string; timestamp: string }[];
    expect(names.every((row) => !Number.isNaN(Date.parse(row.timestamp)))).toBe(true);
    await first.close();
    const second = await openStore({ dataDir });
    expect(await second.settings.get('kept')).toBe('yes');
    await second.close();
  });
});
