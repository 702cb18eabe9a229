/**
 * Opens the database named by the configuration, runs pending migrations and
 * returns the repositories. SQLite unless a postgres:// URL is given.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import { withAdvisoryLock } from './exclusive-lock.js';
import { KyselyRequestLogRepository } from './logs.js';
import { createFreshSqliteSchema } from './migrations/fresh-sqlite.js';
import { migrations, storeMigrator } from './migrations/index.js';
import { postgresConnection, redactUrl } from './postgres-connection.js';
import type { Database } from './schema.js';
import { openSqliteFile } from './sqlite-driver.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { immediateTransaction, storeWrites } from './store-writes.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** `postgres://` or `postgresql://` selects PostgreSQL; anything else (or nothing) selects SQLite. */
  databaseUrl?: string;
  /** Where the SQLite file lives (`<dataDir>/switchyard.db`). */
  dataDir: string;
  /** SQLite only: the page cache in MB (default 2). */
  sqliteCacheMb?: number;
  /** PostgreSQL only: the schema to work in, created if missing (isolates tests in a shared database). */
  schema?: string;
  /** PostgreSQL only: pool size (default 10). */
  poolSize?: number;
}

const postgresUrl = /^postgres(ql)?:\/\//i;
/** The cluster-wide lock migrations run under, per schema. */
const MIGRATION_LOCK = 'switchyard.migrate';
const schemaName = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const isPostgres = options.databaseUrl !== undefined && postgresUrl.test(options.databaseUrl);
  const { db, created } = isPostgres ? { db: await openPostgres(options.databaseUrl as string, options), created: false } : openSqlite(options.dataDir, options.sqliteCacheMb);
  try {
    // A new SQLite file got the whole schema at once, with every migration recorded: nothing is pending.
    // Instances (or a CLI) opening one database together migrate one at a time; the others then find nothing pending.
    if (!created && isPostgres) {
      const schema = await currentSchema(db);
      await withAdvisoryLock(db, `${MIGRATION_LOCK}.${schema}`, () => migrate(db, schema));
    } else if (!created && (await pendingSqliteMigrations(db))) await inWriteTransaction(db, () => migrate(db));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return createStore(db, isPostgres ? 'postgres' : 'sqlite');
}

function openSqlite(dataDir: string, cacheMb = 2): { db: Kysely<Database>; created: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const file = openSqliteFile(join(dataDir, 'switchyard.db'));
  enableWal(file);
  // NORMAL under WAL loses at most the last commits on power loss, never consistency.
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  // better-sqlite3 builds SQLite with a 16 MB page cache, which the log's indexes filled under load:
  // most of the gateway's memory above the floor's (bench/README.md). Negative: KiB, not pages.
  file.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`);
  let created: boolean;
  try {
    created = createFreshSqliteSchema(file);
  } catch (error) {
    file.close();
    throw error;
  }
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) }), created };
}

/**
 * Switching a file to WAL needs a moment of exclusive access, and SQLite does
 * not wait for it (the busy timeout does not cover this pragma): when another
 * process is creating the schema at the same moment, the switch is retried
 * for up to five seconds, like any other wait for the lock.
 */
function enableWal(file: { pragma(source: string): unknown }): void {
  for (let attempt = 1; ; attempt++) {
    try {
      file.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 100) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** int8 (counts, epoch-ms times) and numeric (sums) as numbers: every value stored here fits a double. */
function numericTypes(types: typeof pg.types) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === types.builtins.INT8 || oid === types.builtins.NUMERIC) return (value: string) => Number(value);
      return types.getTypeParser(oid, format as 'text');
    },
  };
}

async function openPostgres(url: string, options: OpenStoreOptions): Promise<Kysely<Database>> {
  const schema = options.schema;
  if (schema !== undefined && !schemaName.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name "${schema}": letters, digits and _ only`);
  }
  // Loaded only when PostgreSQL is used: the embedded default never pays for the driver.
  const { default: postgres } = await import('pg');
  const pool = new postgres.Pool({
    ...postgresConnection(url),
    max: options.poolSize ?? 10,
    types: numericTypes(postgres.types) as pg.CustomTypesConfig,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  try {
    if (schema !== undefined) await createSchema(pool, schema);
    else await pool.query('select 1');
  } catch (error) {
    await pool.end();
    throw new Error(`cannot reach PostgreSQL at ${redactUrl(url)}: ${(error as Error).message}`, { cause: error });
  }
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`create schema if not exists "${schema}"`);
  } catch (error) {
    // Two processes creating the same schema at once: the loser sees a duplicate, which is fine.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

async function currentSchema(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0].schema;
}

/** Whether a SQLite database lacks a migration (the usual start finds none, and takes no write lock). */
async function pendingSqliteMigrations(db: Kysely<Database>): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return Object.keys(migrations).some((name) => !applied.has(name));
  } catch {
    return true;
  }
}

/**
 * SQLite: the whole migration in one immediate transaction on the store's only
 * connection, before anything else uses it. A second process waits for the
 * write lock (busy_timeout), then finds nothing pending; a failed migration
 * leaves nothing half done.
 */
async function inWriteTransaction(db: Kysely<Database>, step: () => Promise<void>): Promise<void> {
  await sql`begin immediate`.execute(db);
  try {
    await step();
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  }
  await sql`commit`.execute(db);
}

async function migrate(db: Kysely<Database>, schema?: string): Promise<void> {
  // Name the schema: otherwise the migrator's existence check sees its tables in any schema of the database.
  const migrator = storeMigrator(db, schema);
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`, {
      cause: error,
    });
  }
}

function createStore(db: Kysely<Database>, engine: Store['engine']): Store {
  return {
    engine,
    ...storeWrites(db),
    logs: new KyselyRequestLogRepository(db),
    transaction: engine === 'sqlite' ? (work) => immediateTransaction(db, work) : (work) => db.transaction().execute((trx) => work(storeWrites(trx))),
    db: db as Kysely<any>,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
