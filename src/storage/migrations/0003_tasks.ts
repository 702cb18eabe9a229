/**
 * Durable tasks (image and video work) and their callback deliveries. Written
 * once for both engines, like the initial migration: text ids, bigint epoch-ms
 * times, double precision money, JSON as text.
 */
import type { Kysely, Migration } from 'kysely';

export const tasks: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('tasks')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('account', 'text')
      .addColumn('upstream_id', 'text')
      .addColumn('upstream_data', 'text')
      .addColumn('parent_id', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('fail_reason', 'text')
      .addColumn('notify_hook', 'text')
      .addColumn('cost', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('billing', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('next_poll_at', 'bigint')
      .addColumn('poll_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('submit_time', 'bigint', (c) => c.notNull())
      .addColumn('start_time', 'bigint')
      .addColumn('finish_time', 'bigint')
      .addColumn('timeout_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // Final tasks have no next poll, so this index holds only the open ones worth scanning.
    await db.schema.createIndex('tasks_due').ifNotExists().on('tasks').column('next_poll_at').execute();
    await db.schema.createIndex('tasks_key').ifNotExists().on('tasks').columns(['key_id', 'submit_time']).execute();
    await db.schema.createIndex('tasks_account_status').ifNotExists().on('tasks').columns(['channel_id', 'account_id', 'status']).execute();

    await db.schema
      .createTable('task_deliveries')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('final', 'integer', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('task_deliveries_due').ifNotExists().on('task_deliveries').column('next_attempt_at').execute();
    await db.schema.createIndex('task_deliveries_task').ifNotExists().on('task_deliveries').columns(['task_id', 'created_at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('task_deliveries').ifExists().execute();
    await db.schema.dropTable('tasks').ifExists().execute();
  },
};
