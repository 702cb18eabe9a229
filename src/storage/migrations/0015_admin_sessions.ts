/**
 * Console sessions of people signed in through single sign-on
 * (storage/admin-sessions.ts): `admin_sessions`, each keyed by the SHA-256 of
 * the secret its cookie holds, and `admin_logins`, the sign-ins started and
 * not yet finished (keyed by the SHA-256 of their `state`), so that a sign-in
 * started on one instance finishes on another.
 */
import type { Kysely, Migration } from 'kysely';

export const adminSessions: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('admin_sessions')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('provider_sid', 'text')
      .execute();
    await db.schema.createIndex('admin_sessions_user').ifNotExists().on('admin_sessions').columns(['user_id']).execute();
    await db.schema.createIndex('admin_sessions_expires').ifNotExists().on('admin_sessions').columns(['expires_at']).execute();
    await db.schema
      .createTable('admin_logins')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('return_to', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('admin_logins').ifExists().execute();
    await db.schema.dropTable('admin_sessions').ifExists().execute();
  },
};
