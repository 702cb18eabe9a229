/**
 * Margins: the usage sums keep what clients were charged for the requests
 * whose upstream cost is known (`costed_spend`), beside that cost
 * (`upstream_cost`) and their count (`costed_requests`), so a channel's
 * margin compares like with like when only some of its models have a cost.
 */
import type { Kysely, Migration } from 'kysely';

const SUM_TABLES = ['usage_minutes', 'usage_hours'] as const;

export const costs: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    for (const name of SUM_TABLES)
      await db.schema
        .alterTable(name)
        .addColumn('costed_spend', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const name of SUM_TABLES) await db.schema.alterTable(name).dropColumn('costed_spend').execute();
  },
};
