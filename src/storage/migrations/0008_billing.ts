/**
 * Exact billing: each request log row says which of its numbers the gateway
 * estimated (`estimated_parts`, a comma list such as `output`; null when none
 * or in older rows, whose `estimated` flag is all they know), keeps the
 * one-hour cache writes apart from the five-minute ones they are part of,
 * records what the upstream cost (`upstream_cost`, from the channel's cost
 * table; null when it has none) and whether the model had a price at all
 * (`unpriced`). The usage sums carry the same, and `prices` holds the prices
 * set through the admin API or applied from the config file (`source`).
 */
import type { Kysely, Migration } from 'kysely';

const SUM_TABLES = ['usage_minutes', 'usage_hours'] as const;

export const billing: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('request_logs').addColumn('estimated_parts', 'text').execute();
    await db.schema
      .alterTable('request_logs')
      .addColumn('cache_write_1h_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('request_logs').addColumn('upstream_cost', 'double precision').execute();
    await db.schema
      .alterTable('request_logs')
      .addColumn('unpriced', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    for (const name of SUM_TABLES) {
      await db.schema
        .alterTable(name)
        .addColumn('cache_write_1h_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable(name)
        .addColumn('upstream_cost', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable(name)
        .addColumn('costed_requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable(name)
        .addColumn('unpriced_requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await db.schema
      .createTable('prices')
      .addColumn('model', 'text', (c) => c.primaryKey())
      .addColumn('price', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull().defaultTo('admin'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('prices').execute();
    for (const name of SUM_TABLES) {
      for (const column of ['unpriced_requests', 'costed_requests', 'upstream_cost', 'cache_write_1h_tokens']) await db.schema.alterTable(name).dropColumn(column).execute();
    }
    for (const column of ['unpriced', 'upstream_cost', 'cache_write_1h_tokens', 'estimated_parts']) await db.schema.alterTable('request_logs').dropColumn(column).execute();
  },
};
