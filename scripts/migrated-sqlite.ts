/**
 * An empty SQLite database migrated by Kysely's migrator (never the fresh-file
 * shortcut of fresh-sqlite.ts), and what it holds: the reference that
 * scripts/fresh-sqlite-schema.ts writes and test/storage/fresh-sqlite.test.ts
 * compares with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { openSqliteFile } from '../src/storage/sqlite-driver.js';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider, migrations } from '../src/storage/migrations/index.js';

export interface SqliteSchema {
  /** `sqlite_master.sql` of every object that has one, in creation order. */
  statements: string[];
  /** Every object (automatic indexes included): type, name and table. */
  objects: string[];
  /** The migrator's records: applied migration names and the lock row. */
  migrationNames: string[];
  lockRows: unknown[];
}

export function readSqliteSchema(file: SqliteDatabase.Database): SqliteSchema {
  const master = file.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid').all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  return {
    statements: master.flatMap((row) => (row.sql === null ? [] : [row.sql])),
    objects: master.map((row) => `${row.type} ${row.name} on ${row.tbl_name}`),
    migrationNames: (file.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((row) => row.name),
    lockRows: file.prepare('SELECT * FROM kysely_migration_lock').all(),
  };
}

export async function migratedSqliteSchema(): Promise<SqliteSchema> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-migrated-'));
  const file = openSqliteFile(join(dir, 'migrated.db'));
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: file }) });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error) throw error;
    const schema = readSqliteSchema(file);
    if (schema.migrationNames.join() !== Object.keys(migrations).sort().join()) throw new Error('the migrator left migrations unapplied');
    return schema;
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
