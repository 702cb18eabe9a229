/**
 * Fewer index entries per request-log row: every row pays for every index at
 * insert, and the log is the gateway's hottest write (bench/README.md, issue 37).
 *
 * - The team and user indexes hold only rows that have a team or a user: their
 *   filters (`team_id = ?`, `team_id IN (…)`, `user_id = ?`) imply NOT NULL, so
 *   both engines still use them, and a gateway without teams writes none.
 * - The status index goes: the console's status filters are a class of
 *   errors, one error status or `2xx`. An error filter is said with the
 *   partial index's own `http_status >= 400` (logs.ts) and reads that index;
 *   `2xx` is most of the log, read newest first by time like no filter.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const logIndexTrim: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('request_logs_status_created').ifExists().execute();
    for (const column of ['team_id', 'user_id'] as const) {
      const name = `request_logs_${column.slice(0, -3)}_created`;
      await db.schema.dropIndex(name).ifExists().execute();
      await db.schema.createIndex(name).on('request_logs').columns([column, 'created_at']).where(sql.ref(column), 'is not', null).execute();
    }
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const column of ['team_id', 'user_id'] as const) {
      const name = `request_logs_${column.slice(0, -3)}_created`;
      await db.schema.dropIndex(name).ifExists().execute();
      await db.schema.createIndex(name).on('request_logs').columns([column, 'created_at']).execute();
    }
    await db.schema.createIndex('request_logs_status_created').ifNotExists().on('request_logs').columns(['http_status', 'created_at']).execute();
  },
};
