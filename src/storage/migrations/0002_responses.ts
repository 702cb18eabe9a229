/**
 * Stored responses (family E): one row per response with its input and output
 * items, and an index of item ids so `item_reference` inputs can be resolved.
 * Written once for both engines: text ids, bigint epoch-ms times, JSON as text.
 */
import type { Kysely, Migration } from 'kysely';

export const responses: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('responses')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('previous_response_id', 'text')
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('response', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('channel_id', 'text')
      .addColumn('native', 'integer', (c) => c.notNull())
      .addColumn('upstream_response_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('response_items')
      .ifNotExists()
      .addColumn('response_id', 'text', (c) => c.notNull())
      .addColumn('item_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('response_items_pk', ['response_id', 'item_id'])
      .execute();
    await db.schema.createIndex('response_items_key_item').ifNotExists().on('response_items').columns(['key_id', 'item_id']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('response_items').ifExists().execute();
    await db.schema.dropTable('responses').ifExists().execute();
  },
};
