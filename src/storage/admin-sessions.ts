/** Console sessions and pending sign-ins (see admin-session-types.ts). */
import type { Kysely, Selectable } from 'kysely';
import { toNumber } from './columns.js';
import type { AdminSessionRecord, AdminSessionRepository, NewAdminSession, PendingLogin } from './admin-session-types.js';
import type { AdminSessionsTable, Database } from './schema.js';

function toSession(row: Selectable<AdminSessionsTable>): AdminSessionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: toNumber(row.created_at),
    expiresAt: toNumber(row.expires_at),
    lastSeenAt: toNumber(row.last_seen_at),
    providerSid: row.provider_sid,
  };
}

export class KyselyAdminSessionRepository implements AdminSessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(session: NewAdminSession): Promise<AdminSessionRecord> {
    const now = Date.now();
    const row = await this.db
      .insertInto('admin_sessions')
      .values({ id: session.id, user_id: session.userId, created_at: now, expires_at: session.expiresAt, last_seen_at: now, provider_sid: session.providerSid ?? null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toSession(row);
  }

  async get(id: string): Promise<AdminSessionRecord | undefined> {
    const row = await this.db.selectFrom('admin_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toSession(row);
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db.updateTable('admin_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('admin_sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async pruneExpired(now: number): Promise<number> {
    await this.db.deleteFrom('admin_logins').where('expires_at', '<', now).execute();
    const result = await this.db.deleteFrom('admin_sessions').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async startLogin(login: PendingLogin): Promise<void> {
    await this.db.insertInto('admin_logins').values({ id: login.id, code_verifier: login.codeVerifier, nonce: login.nonce, return_to: login.returnTo, expires_at: login.expiresAt }).execute();
  }

  async takeLogin(id: string): Promise<PendingLogin | undefined> {
    // Delete-returning: of two callbacks with one state, only one gets the row.
    const row = await this.db.deleteFrom('admin_logins').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) return undefined;
    return { id: row.id, codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to, expiresAt: toNumber(row.expires_at) };
  }
}
