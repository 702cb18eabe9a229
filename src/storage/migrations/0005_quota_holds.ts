/**
 * Quota holds: the spend a request may still cause, reserved before it is
 * routed so that instances sharing one PostgreSQL database (without Redis)
 * cannot overspend a key's quota together. A hold ends when its request
 * settles; one left by a crashed instance expires.
 */
import type { Kysely, Migration } from 'kysely';

export const quotaHolds: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('quota_holds')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('amount', 'double precision', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('quota_holds_key').on('quota_holds').columns(['key_id', 'expires_at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('quota_holds').execute();
  },
};
