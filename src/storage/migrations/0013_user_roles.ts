/**
 * A person's gateway-wide admin role (`users.role`: owner, admin or viewer;
 * null: none, which a team admin, by membership, may still act within their
 * teams). See src/admin/access.ts for what each role may do.
 */
import type { Kysely, Migration } from 'kysely';

export const userRoles: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('users').addColumn('role', 'text').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('users').dropColumn('role').execute();
  },
};
