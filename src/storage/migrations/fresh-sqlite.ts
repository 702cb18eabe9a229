/**
 * A brand-new SQLite file gets its whole schema in one transaction: the
 * statements every migration would have left (fresh-sqlite-schema.ts, written
 * by scripts/fresh-sqlite-schema.ts from a migrated database) and the
 * migrator's own two tables with every migration recorded as applied, so
 * later starts and later migrations see a database the migrator made. Running
 * the ~50 migration statements through Kysely cost a cold start more than
 * SQLite's work itself. Any other database (not empty, or PostgreSQL) goes
 * through the migrator as before.
 */
import type SqliteDatabase from 'better-sqlite3';
import { FRESH_SQLITE_MIGRATIONS, FRESH_SQLITE_SCHEMA } from './fresh-sqlite-schema.js';
import { migrations } from './index.js';

/**
 * Creates the schema when `file` holds no table yet; returns whether it did. The
 * write lock is taken before the check, so a second process opening the same new
 * file waits, then finds the tables and migrates (nothing left to do).
 */
export function createFreshSqliteSchema(file: SqliteDatabase.Database): boolean {
  // A migration added since the script was written: the migrator builds this database.
  if (Object.keys(migrations).join() !== FRESH_SQLITE_MIGRATIONS.join()) return false;
  const create = file.transaction(() => {
    if (file.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() !== undefined) return false;
    for (const statement of FRESH_SQLITE_SCHEMA) file.exec(statement);
    // As Kysely's migrator records them: its lock row, and each migration with the time it ran.
    file.prepare(`INSERT INTO "kysely_migration_lock" ("id", "is_locked") VALUES ('migration_lock', 0)`).run();
    const applied = file.prepare('INSERT INTO "kysely_migration" ("name", "timestamp") VALUES (?, ?)');
    const now = new Date().toISOString();
    for (const name of FRESH_SQLITE_MIGRATIONS) applied.run(name, now);
    return true;
  });
  return create.immediate();
}
