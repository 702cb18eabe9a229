/**
 * Files uploaded through `/v1/files` (their bytes in the media store, the
 * row naming its key) and batches: one row per batch and one per line of
 * it, each line leased by the instance running it and answered once
 * (src/tasks/batches/). Written once for both engines like the others: text
 * ids, bigint epoch-ms times, JSON as text.
 */
import type { Kysely, Migration } from 'kysely';

export const filesBatches: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('files')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('media_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .execute();
    await db.schema.createIndex('files_key').ifNotExists().on('files').columns(['key_id', 'id']).execute();
    await db.schema.createIndex('files_expires').ifNotExists().on('files').column('expires_at').execute();

    await db.schema
      .createTable('batches')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('api', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('team_id', 'text')
      .addColumn('user_id', 'text')
      .addColumn('endpoint', 'text', (c) => c.notNull())
      .addColumn('input_file_id', 'text')
      .addColumn('completion_window', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('errors', 'text')
      .addColumn('metadata', 'text')
      .addColumn('output_file_id', 'text')
      .addColumn('error_file_id', 'text')
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('counts', 'text')
      .addColumn('usage', 'text')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('in_progress_at', 'bigint')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('finalizing_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('failed_at', 'bigint')
      .addColumn('expired_at', 'bigint')
      .addColumn('cancelling_at', 'bigint')
      .addColumn('cancelled_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('batches_key').ifNotExists().on('batches').columns(['key_id', 'api', 'id']).execute();
    await db.schema.createIndex('batches_status').ifNotExists().on('batches').columns(['status', 'id']).execute();

    await db.schema
      .createTable('batch_lines')
      .ifNotExists()
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('idx', 'integer', (c) => c.notNull())
      .addColumn('custom_id', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('request_id', 'text')
      .addColumn('response', 'text')
      .addColumn('error', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('batch_lines_pk', ['batch_id', 'idx'])
      .execute();
    await db.schema.createIndex('batch_lines_status').ifNotExists().on('batch_lines').columns(['batch_id', 'status', 'idx']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('batch_lines').ifExists().execute();
    await db.schema.dropTable('batches').ifExists().execute();
    await db.schema.dropTable('files').ifExists().execute();
  },
};
