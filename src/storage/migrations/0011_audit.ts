/**
 * The audit log of administrative changes (storage/audit-log.ts): who changed
 * what and when, with the target's public view before and after. Ids sort by
 * time (`aud_…`, like log ids); indexes serve the time, target and actor
 * filters of GET /admin/audit, each newest first.
 */
import type { Kysely, Migration } from 'kysely';

export const audit: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('audit_log')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_name', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'text')
      .addColumn('target_name', 'text')
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('request_id', 'text')
      .addColumn('client_ip', 'text')
      .execute();
    await db.schema.createIndex('audit_log_at').ifNotExists().on('audit_log').columns(['at']).execute();
    await db.schema.createIndex('audit_log_target_at').ifNotExists().on('audit_log').columns(['target_kind', 'target_id', 'at']).execute();
    await db.schema.createIndex('audit_log_actor_at').ifNotExists().on('audit_log').columns(['actor_kind', 'actor_id', 'at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('audit_log').ifExists().execute();
  },
};
