/**
 * `batch_delegations.create_started_at`: when the delegation last sent a
 * create to the upstream's batch API (null: never). A create whose answer
 * was lost is recognised by it on an API with no metadata to name the
 * delegation (Anthropic's: a batch made since, with as many requests).
 */
import type { Kysely, Migration } from 'kysely';

export const delegationCreateStarted: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('batch_delegations').addColumn('create_started_at', 'bigint').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('batch_delegations').dropColumn('create_started_at').execute();
  },
};
