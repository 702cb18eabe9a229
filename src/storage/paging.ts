/**
 * Pages newest first by (created_at, id): the rows after the last one shown,
 * for the request log, the task list and the audit log (whose time column is
 * `at`). Ids break ties within one millisecond, so no row is skipped or shown
 * twice, and no OFFSET is read.
 */
import { sql, type RawBuilder } from 'kysely';

export interface PagePosition {
  createdAt: number;
  id: string;
}

export function olderThan(after: PagePosition, timeColumn: 'created_at' | 'at' = 'created_at'): RawBuilder<boolean> {
  const time = sql.ref(timeColumn);
  return sql<boolean>`(${time} < ${after.createdAt} OR (${time} = ${after.createdAt} AND id < ${after.id}))`;
}
