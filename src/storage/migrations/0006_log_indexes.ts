/**
 * Indexes for the request-log filters by model and by channel (the key and
 * time filters had theirs from the start), so a filtered page of a large log
 * reads only what it shows.
 */
import type { Kysely, Migration } from 'kysely';

export const logIndexes: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex('request_logs_model_created').ifNotExists().on('request_logs').columns(['model', 'created_at']).execute();
    await db.schema.createIndex('request_logs_channel_created').ifNotExists().on('request_logs').columns(['channel_id', 'created_at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('request_logs_channel_created').ifExists().execute();
    await db.schema.dropIndex('request_logs_model_created').ifExists().execute();
  },
};
