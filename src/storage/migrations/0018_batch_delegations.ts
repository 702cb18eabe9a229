/**
 * OpenAI batches served through an upstream's own Batch API: one row per
 * group of lines handed to one upstream batch (`batch_delegations`, leased
 * like lines, src/tasks/batches/delegation/), and on each line the group it
 * was handed to (`batch_lines.delegation_id`; null: the gateway runs it).
 */
import type { Kysely, Migration } from 'kysely';

export const batchDelegations: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('batch_delegations')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('upstream_model', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('upstream_file_id', 'text')
      .addColumn('upstream_batch_id', 'text')
      .addColumn('upstream_status', 'text')
      .addColumn('output_file_id', 'text')
      .addColumn('error_file_id', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('polls', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_check_at', 'bigint', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('batch_delegations_due').ifNotExists().on('batch_delegations').columns(['state', 'next_check_at']).execute();
    await db.schema.createIndex('batch_delegations_batch').ifNotExists().on('batch_delegations').columns(['batch_id']).execute();
    await db.schema.alterTable('batch_lines').addColumn('delegation_id', 'text').execute();
    await db.schema.createIndex('batch_lines_delegation').ifNotExists().on('batch_lines').columns(['delegation_id', 'idx']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('batch_lines_delegation').ifExists().execute();
    await db.schema.alterTable('batch_lines').dropColumn('delegation_id').execute();
    await db.schema.dropTable('batch_delegations').ifExists().execute();
  },
};
