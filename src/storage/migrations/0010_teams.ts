/**
 * Teams and users: a team owns keys and has members (`team_members`, with a
 * role for the team admins to come), a user belongs to teams. A key may name
 * a team, or a user in a team (`keys.team_id`, `keys.user_id`). Request log
 * rows, usage sums and tasks carry the team and user of the key they were
 * made with, as they were then, so spend rolls up by team and user without a
 * join and stays with the team a request was made for when a key moves.
 * `users.email` is kept case-folded and unique; `external_id` is the subject
 * a sign-in provider will name the user by.
 */
import { sql, type Kysely, type Migration } from 'kysely';

const SUM_TABLES = ['usage_minutes', 'usage_hours'] as const;
const OLD_GROUP = ['bucket', 'family', 'model', 'channel_id', 'key_id'];
const GROUP = [...OLD_GROUP, 'team_id', 'user_id'];

export const teams: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('teams')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('external_id', 'text', (c) => c.unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('team_members')
      .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
      .execute();
    await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

    for (const column of ['team_id', 'user_id']) {
      await db.schema.alterTable('keys').addColumn(column, 'text').execute();
      await db.schema.alterTable('request_logs').addColumn(column, 'text').execute();
      await db.schema.alterTable('tasks').addColumn(column, 'text').execute();
    }
    await db.schema.createIndex('keys_team').on('keys').column('team_id').execute();
    await db.schema.createIndex('keys_user').on('keys').column('user_id').execute();
    // The log's team and user filters, newest first.
    await db.schema.createIndex('request_logs_team_created').on('request_logs').columns(['team_id', 'created_at']).execute();
    await db.schema.createIndex('request_logs_user_created').on('request_logs').columns(['user_id', 'created_at']).execute();

    for (const name of SUM_TABLES) {
      // '' when none, as for the channel and the key: a unique key cannot hold NULLs alike on both engines.
      await db.schema
        .alterTable(name)
        .addColumn('team_id', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable(name)
        .addColumn('user_id', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.dropIndex(`${name}_group`).execute();
      await db.schema.createIndex(`${name}_group`).unique().on(name).columns(GROUP).execute();
    }
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const name of SUM_TABLES) {
      await db.schema.dropIndex(`${name}_group`).execute();
      // Sums that differ only by team or user cannot be merged back on both engines alike: they go.
      await sql`DELETE FROM ${sql.table(name)} WHERE team_id <> '' OR user_id <> ''`.execute(db);
      await db.schema.alterTable(name).dropColumn('user_id').execute();
      await db.schema.alterTable(name).dropColumn('team_id').execute();
      await db.schema.createIndex(`${name}_group`).unique().on(name).columns(OLD_GROUP).execute();
    }
    await db.schema.dropIndex('request_logs_user_created').execute();
    await db.schema.dropIndex('request_logs_team_created').execute();
    await db.schema.dropIndex('keys_user').execute();
    await db.schema.dropIndex('keys_team').execute();
    for (const column of ['user_id', 'team_id']) {
      await db.schema.alterTable('tasks').dropColumn(column).execute();
      await db.schema.alterTable('request_logs').dropColumn(column).execute();
      await db.schema.alterTable('keys').dropColumn(column).execute();
    }
    await db.schema.dropTable('team_members').execute();
    await db.schema.dropTable('users').execute();
    await db.schema.dropTable('teams').execute();
  },
};
