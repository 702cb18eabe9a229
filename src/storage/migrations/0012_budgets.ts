/**
 * Budgets (storage/budgets.ts): a limit in USD and/or tokens on a key, a user
 * or a team over a period in a time zone; `budget_spend` the running totals
 * of each period, keyed by the period's start so a new period is a new row;
 * the highest alert threshold each period has sent (`alerted_percent`);
 * `budget_holds` the holds in flight of instances sharing PostgreSQL without
 * Redis (billing/quota/postgres-ledger.ts).
 */
import type { Kysely, Migration } from 'kysely';

export const budgets: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('budgets')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('scope_kind', 'text', (c) => c.notNull())
      .addColumn('scope_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('amount_usd', 'double precision')
      .addColumn('tokens', 'bigint')
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
      .addColumn('alert_url', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('budgets_scope').ifNotExists().on('budgets').columns(['scope_kind', 'scope_id']).execute();
    await db.schema
      .createTable('budget_spend')
      .ifNotExists()
      .addColumn('budget_id', 'text', (c) => c.notNull())
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('spent_usd', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('spent_tokens', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('alerted_percent', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('budget_spend_pk', ['budget_id', 'period_start'])
      .execute();
    await db.schema
      .createTable('budget_holds')
      .ifNotExists()
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('budget_id', 'text', (c) => c.notNull())
      .addColumn('period_start', 'bigint', (c) => c.notNull())
      .addColumn('amount_usd', 'double precision', (c) => c.notNull())
      .addColumn('tokens', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('budget_holds_budget').ifNotExists().on('budget_holds').columns(['budget_id', 'period_start']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('budget_holds').ifExists().execute();
    await db.schema.dropTable('budget_spend').ifExists().execute();
    await db.schema.dropTable('budgets').ifExists().execute();
  },
};
