/**
 * Translation plans: a key may ask for strict translation (refuse what an
 * upstream would ignore), and each request log row names what translation
 * mapped or ignored.
 */
import type { Kysely, Migration } from 'kysely';

export const translation: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .alterTable('keys')
      .addColumn('strict_translation', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('request_logs').addColumn('translation', 'text').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('request_logs').dropColumn('translation').execute();
    await db.schema.alterTable('keys').dropColumn('strict_translation').execute();
  },
};
