/**
 * `batches.output_expires_seconds`: a batch's `output_expires_after`, the
 * seconds after their creation its output and error files expire (null:
 * kept until deleted).
 */
import type { Kysely, Migration } from 'kysely';

export const batchOutputExpiry: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('batches').addColumn('output_expires_seconds', 'integer').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('batches').dropColumn('output_expires_seconds').execute();
  },
};
