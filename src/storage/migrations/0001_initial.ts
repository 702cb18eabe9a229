/**
 * Keys, channels, request logs and settings. Written once for both engines:
 * text ids, bigint epoch-ms times, double precision money, JSON as text,
 * integer 0/1 flags.
 */
import type { Kysely, Migration } from 'kysely';

export const initial: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('keys')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('expires_at', 'bigint')
      .addColumn('quota', 'double precision')
      .addColumn('used', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('models', 'text')
      .addColumn('allow_ips', 'text')
      .addColumn('rpm', 'integer')
      .addColumn('tpm', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('channels')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('base_url', 'text', (c) => c.notNull())
      .addColumn('api_keys', 'text', (c) => c.notNull())
      .addColumn('models', 'text', (c) => c.notNull())
      .addColumn('model_mapping', 'text', (c) => c.notNull())
      .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('request_logs')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('family', 'text', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('upstream_model', 'text')
      .addColumn('channel_id', 'text')
      .addColumn('tried_channels', 'text', (c) => c.notNull())
      .addColumn('http_status', 'integer', (c) => c.notNull())
      .addColumn('error_kind', 'text')
      .addColumn('error_message', 'text')
      .addColumn('stream', 'integer', (c) => c.notNull())
      .addColumn('input_tokens', 'bigint', (c) => c.notNull())
      .addColumn('output_tokens', 'bigint', (c) => c.notNull())
      .addColumn('cache_read_tokens', 'bigint', (c) => c.notNull())
      .addColumn('cache_write_tokens', 'bigint', (c) => c.notNull())
      .addColumn('reasoning_tokens', 'bigint', (c) => c.notNull())
      .addColumn('estimated', 'integer', (c) => c.notNull())
      .addColumn('cost', 'double precision', (c) => c.notNull())
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('first_byte_ms', 'integer')
      .addColumn('client_ip', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema.createIndex('request_logs_key_created').ifNotExists().on('request_logs').columns(['key_id', 'created_at']).execute();
    await db.schema.createIndex('request_logs_created').ifNotExists().on('request_logs').column('created_at').execute();

    await db.schema
      .createTable('settings')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('settings').ifExists().execute();
    await db.schema.dropTable('request_logs').ifExists().execute();
    await db.schema.dropTable('channels').ifExists().execute();
    await db.schema.dropTable('keys').ifExists().execute();
  },
};
