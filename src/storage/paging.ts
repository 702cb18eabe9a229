/**
 * Pages newest first by (created_at, id): the rows after the last one shown,
 * for the request log and the task list alike. Ids break ties within one
 * millisecond, so no row is skipped or shown twice, and no OFFSET is read.
 */
import { sql, type RawBuilder } from 'kysely';

export interface PagePosition {
  createdAt: number;
  id: string;
}

export function olderThan(after: PagePosition): RawBuilder<boolean> {
  return sql<boolean>`(created_at < ${after.createdAt} OR (created_at = ${after.createdAt} AND id < ${after.id}))`;
}
