/**
 * The two engines every repository test runs against. PostgreSQL tests work in
 * a fresh random schema of the shared `test` database and drop it afterwards.
 * They fail when PostgreSQL is unreachable unless SWITCHYARD_SKIP_PG=1.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openStore } from '../../src/storage/open.js';
import { postgresConnection } from '../../src/storage/postgres-connection.js';
import type { Store } from '../../src/storage/types.js';

export const postgresUrl = process.env.SWITCHYARD_TEST_PG_URL ?? 'postgres://127.0.0.1:5432/test';
export const skipPostgres = process.env.SWITCHYARD_SKIP_PG === '1';

export interface TestDatabase {
  engine: 'sqlite' | 'postgres';
  dataDir: string;
  schema?: string;
  /** Opens (again) a store on this same database. */
  open(): Promise<Store>;
  /** Removes the temp dir and, for PostgreSQL, the schema. */
  destroy(): Promise<void>;
}

export async function createTestDatabase(engine: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-storage-'));
  if (engine === 'sqlite') {
    return {
      engine,
      dataDir,
      open: () => openStore({ dataDir }),
      destroy: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    engine,
    dataDir,
    schema,
    open: () => openStore({ databaseUrl: postgresUrl, dataDir, schema }),
    async destroy() {
      await rm(dataDir, { recursive: true, force: true });
      const client = new pg.Client(postgresConnection(postgresUrl));
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

export const engines = [
  { engine: 'sqlite' as const, skip: false },
  { engine: 'postgres' as const, skip: skipPostgres },
];

export interface OpenedTestStore {
  readonly database: TestDatabase;
  readonly store: Store;
}

/**
 * Opens a store for the enclosing describe block. If the database cannot be
 * opened, every test in the block fails with that error (rather than the block
 * failing quietly in a hook while its tests count as skipped).
 */
export function useTestStore(engine: 'sqlite' | 'postgres', skip: boolean): OpenedTestStore {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  let openError: unknown;
  beforeAll(async () => {
    if (skip) return;
    try {
      database = await createTestDatabase(engine);
      store = await database.open();
    } catch (error) {
      openError = error;
    }
  });
  beforeEach(() => {
    if (openError !== undefined) throw openError;
  });
  afterAll(async () => {
    await store?.close();
    if (database === undefined) return;
    // A database that never opened has no schema to drop, only its temp dir.
    if (openError === undefined) await database.destroy();
    else await rm(database.dataDir, { recursive: true, force: true });
  });
  return {
    get database() {
      return database as TestDatabase;
    },
    get store() {
      return store as Store;
    },
  };
}

/**
 * Fresh PostgreSQL schema names for a test file, each dropped after the
 * file's tests (gateways started on them create their tables there).
 */
export function freshSchemas(prefix: string): () => string {
  const names: string[] = [];
  afterAll(async () => {
    if (names.length === 0) return;
    const client = new pg.Client(postgresConnection(postgresUrl));
    await client.connect();
    try {
      for (const name of names) await client.query(`drop schema if exists "${name}" cascade`);
    } finally {
      await client.end();
    }
  });
  return () => {
    const name = `${prefix}_${randomBytes(6).toString('hex')}`;
    names.push(name);
    return name;
  };
}
