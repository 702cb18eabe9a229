/**
 * Image generation's bookkeeping: `request_logs.images`, the number of images
 * a request made (null for requests that make none), and `expiring_media`,
 * the media keys of `url` image answers with the time they expire, which the
 * sweeper of the image-generations family reads to remove their files.
 */
import type { Kysely, Migration } from 'kysely';

export const images: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('request_logs').addColumn('images', 'integer').execute();
    await db.schema
      .createTable('expiring_media')
      .ifNotExists()
      .addColumn('media_key', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('expiring_media_expires').ifNotExists().on('expiring_media').columns(['expires_at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('expiring_media').ifExists().execute();
    await db.schema.alterTable('request_logs').dropColumn('images').execute();
  },
};
