import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { KyselyAdminTokenRepository } from './admin-tokens.js';
import { KyselyAdminSessionRepository } from './admin-sessions.js';
import { KyselyAuditRepository } from './audit-log.js';
import { KyselyBudgetRepository } from './budgets.js';
import { KyselyChannelRepository } from './channels.js';
import { KyselyKeyRepository } from './keys.js';
import { KyselyPriceRepository } from './prices.js';
import type { Database } from './schema.js';
import { KyselySettingsRepository } from './settings.js';
import { KyselyTeamRepository } from './teams.js';
import { KyselyUserRepository } from './users.js';
import type { StoreWrites } from './types.js';

/** The repositories an administrative change writes through, over the database or one transaction of it. */
export function storeWrites(db: Kysely<Database>): StoreWrites {
  return {
    keys: new KyselyKeyRepository(db),
    channels: new KyselyChannelRepository(db),
    settings: new KyselySettingsRepository(db),
    prices: new KyselyPriceRepository(db),
    audit: new KyselyAuditRepository(db),
    teams: new KyselyTeamRepository(db),
    users: new KyselyUserRepository(db),
    budgets: new KyselyBudgetRepository(db),
    adminTokens: new KyselyAdminTokenRepository(db),
    sessions: new KyselyAdminSessionRepository(db),
  };
}

/**
 * SQLite: the transaction takes the write lock at its start (`begin
 * immediate`). A deferred one that reads first and writes later fails at
 * once ("database is locked") when another connection wrote meanwhile, as
 * instances applying one config file do. The lock is waited for between
 * tries, not in SQLite's busy handler, which would hold the event loop, and
 * with it the transaction of another store of this process that holds the
 * lock; the wait is as long as the busy timeout.
 */
export async function immediateTransaction<T>(db: Kysely<Database>, work: (tx: StoreWrites) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await beginImmediate(connection);
    let result: T;
    try {
      result = await work(storeWrites(connection));
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}

async function beginImmediate(connection: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
  const timeoutMs = Number(rows[0]?.timeout ?? 0);
  const deadline = Date.now() + timeoutMs;
  await sql`pragma busy_timeout = 0`.execute(connection);
  try {
    for (;;) {
      try {
        await sql`begin immediate`.execute(connection);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
        await sleep(5);
      }
    }
  } finally {
    await sql`pragma busy_timeout = ${sql.lit(timeoutMs)}`.execute(connection);
  }
}
