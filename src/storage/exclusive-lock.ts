/**
 * Runs a step while holding a cluster-wide lock, so instances starting
 * together do not interleave it (applying the config file, say). PostgreSQL
 * holds a session advisory lock on one reserved connection; SQLite serves one
 * host, where the step itself tolerates a concurrent writer.
 */
import { sql } from 'kysely';
import type { Store } from './types.js';

export async function withExclusiveLock<T>(store: Store, name: string, step: () => Promise<T>): Promise<T> {
  if (store.engine !== 'postgres') return step();
  return store.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${name}))`.execute(connection);
    try {
      return await step();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${name}))`.execute(connection);
    }
  });
}
