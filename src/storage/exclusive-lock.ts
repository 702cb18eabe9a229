/**
 * Runs a step while holding a cluster-wide lock, so instances starting
 * together do not interleave it (migrations, first-start credentials,
 * applying the config file). PostgreSQL holds a session advisory lock on one
 * reserved connection; on SQLite, which serves one host, the steps tolerate a
 * concurrent writer themselves (and migrations run in one write transaction,
 * see open.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Store } from './types.js';

export async function withExclusiveLock<T>(store: Store, name: string, step: () => Promise<T>): Promise<T> {
  if (store.engine !== 'postgres') return step();
  return withAdvisoryLock(store.db, name, step);
}

/** The PostgreSQL lock itself, for a database opened before its store exists (migrations). */
export async function withAdvisoryLock<T>(db: Kysely<any>, name: string, step: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${name}))`.execute(connection);
    try {
      return await step();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}
