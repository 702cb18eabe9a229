/**
 * Personal admin tokens: a person's credential for the admin API, acting with
 * their role and team-admin memberships as they are when it is used. Only the
 * secret's sha256 is kept (unique: the lookup), and a short prefix to
 * recognise it by. A revoked token keeps its row (who had what, for the audit
 * log); deleting the user deletes their tokens.
 */
import type { Kysely, Migration } from 'kysely';

export const adminTokens: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('admin_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('token_prefix', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('admin_tokens_user').on('admin_tokens').column('user_id').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('admin_tokens').execute();
  },
};
