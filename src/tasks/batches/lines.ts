/**
 * Batch lines, worked on with leases like tasks (src/tasks/repository.ts):
 * an instance claims pending lines in one statement that checks each row's
 * lease as it takes it, so two instances never both get a line; the answer
 * is written with a compare-and-set on (line, lease owner, attempt) and only
 * while the line is pending, so a line gets exactly one answer even when a
 * lease ran out and another instance ran it again. A line in flight keeps
 * its lease renewed; a killed instance's lines are due again once theirs
 * ran out. Lines handed to an upstream's own batch API (`delegation_id`
 * set, delegation/) are never claimed here.
 */
import { sql } from 'kysely';
import { toAnsweredLine, type AnsweredLine, type BatchDb, type BatchLine, type BatchLinesTable, type LineCounts, type LineStatus } from './schema.js';

export interface LineAnswer {
  status: Exclude<LineStatus, 'pending'>;
  requestId: string | null;
  response: { status_code: number; body: unknown } | null;
  error: { code: string; message: string } | null;
}

/** A line's answer as its row stores it. */
export function answerColumns(answer: LineAnswer): Pick<BatchLinesTable, 'status' | 'request_id' | 'response' | 'error'> {
  return {
    status: answer.status,
    request_id: answer.requestId,
    response: answer.response === null ? null : JSON.stringify(answer.response),
    error: answer.error === null ? null : JSON.stringify(answer.error),
  };
}

const due = (now: number) => sql<boolean>`(lease_until is null or lease_until < ${now})`;

export class BatchLineRepository {
  constructor(
    private readonly db: BatchDb,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /**
   * Takes the lease on up to `limit` due pending lines of one batch, each
   * attempt counted. On PostgreSQL the lines are picked in a CTE, evaluated
   * once: a `where idx in (select … limit n for update skip locked)` may be
   * evaluated again when a concurrent claim changed a row, and then takes
   * more than `limit` lines.
   */
  async claim(batchId: string, owner: string, leaseMs: number, limit: number, now = Date.now()): Promise<BatchLine[]> {
    const until = now + leaseMs;
    let rows: Pick<BatchLinesTable, 'batch_id' | 'idx' | 'custom_id' | 'body' | 'attempt'>[];
    if (this.engine === 'postgres') {
      const result = await sql<Pick<BatchLinesTable, 'batch_id' | 'idx' | 'custom_id' | 'body' | 'attempt'>>`
        with picked as (
          select idx from batch_lines
          where batch_id = ${batchId} and status = 'pending' and delegation_id is null and (lease_until is null or lease_until < ${now})
          order by idx limit ${limit} for update skip locked
        )
        update batch_lines set lease_owner = ${owner}, lease_until = ${until}, attempt = attempt + 1, updated_at = ${now}
        where batch_id = ${batchId} and idx in (select idx from picked)
        returning batch_id, idx, custom_id, body, attempt`.execute(this.db);
      rows = result.rows;
    } else {
      // SQLite runs one statement at a time: the subquery and the update see the same rows.
      const pick = this.db
        .selectFrom('batch_lines')
        .select('idx')
        .where('batch_id', '=', batchId)
        .where('status', '=', 'pending')
        .where('delegation_id', 'is', null)
        .where(due(now))
        .orderBy('idx')
        .limit(limit);
      rows = await this.db
        .updateTable('batch_lines')
        .set({ lease_owner: owner, lease_until: until, attempt: sql<number>`attempt + 1`, updated_at: now })
        .where('batch_id', '=', batchId)
        .where('idx', 'in', pick)
        .where('status', '=', 'pending')
        .where('delegation_id', 'is', null)
        .where(due(now))
        .returning(['batch_id', 'idx', 'custom_id', 'body', 'attempt'])
        .execute();
    }
    return rows
      .map((row) => ({ batchId: row.batch_id, index: Number(row.idx), customId: row.custom_id, body: JSON.parse(row.body) as Record<string, unknown>, attempt: Number(row.attempt) }))
      .sort((a, b) => a.index - b.index);
  }

  /** Extends the leases this instance holds on lines still in flight. */
  async renew(owner: string, lines: readonly Pick<BatchLine, 'batchId' | 'index'>[], until: number): Promise<void> {
    const byBatch = new Map<string, number[]>();
    for (const line of lines) byBatch.set(line.batchId, [...(byBatch.get(line.batchId) ?? []), line.index]);
    for (const [batchId, indexes] of byBatch) {
      await this.db
        .updateTable('batch_lines')
        .set({ lease_until: until })
        .where('batch_id', '=', batchId)
        .where('idx', 'in', indexes)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .execute();
    }
  }

  /** Writes the line's one answer if this instance's attempt still holds it; false when another came first. */
  async answer(line: BatchLine, owner: string, answer: LineAnswer, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('batch_lines')
      .set({ ...answerColumns(answer), lease_owner: null, lease_until: null, updated_at: now })
      .where('batch_id', '=', line.batchId)
      .where('idx', '=', line.index)
      .where('lease_owner', '=', owner)
      .where('attempt', '=', line.attempt)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands a line back to run again from `at` (a limit of the key refused it for now). */
  async retryAt(line: BatchLine, owner: string, at: number): Promise<void> {
    await this.db
      .updateTable('batch_lines')
      .set({ lease_owner: null, lease_until: at })
      .where('batch_id', '=', line.batchId)
      .where('idx', '=', line.index)
      .where('lease_owner', '=', owner)
      .where('attempt', '=', line.attempt)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Ends every pending line no instance is running (a cancel, an expiry): how many. Lines handed to an upstream batch are ended by their delegation. */
  async endIdle(batchId: string, answer: LineAnswer, now = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('batch_lines')
      .set({ status: answer.status, error: answer.error === null ? null : JSON.stringify(answer.error), lease_owner: null, lease_until: null, updated_at: now })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'pending')
      .where('delegation_id', 'is', null)
      .where(due(now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async counts(batchId: string): Promise<LineCounts> {
    const rows = await this.db
      .selectFrom('batch_lines')
      .select(['status', sql<number>`count(*)`.as('n')])
      .where('batch_id', '=', batchId)
      .groupBy('status')
      .execute();
    const counts: LineCounts = { pending: 0, succeeded: 0, failed: 0, cancelled: 0, expired: 0 };
    for (const row of rows) counts[row.status as LineStatus] = Number(row.n);
    return counts;
  }

  async hasPending(batchId: string): Promise<boolean> {
    const row = await this.db.selectFrom('batch_lines').select('idx').where('batch_id', '=', batchId).where('status', '=', 'pending').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Answered lines in order, `limit` after index `after` (-1: from the start); `onlySucceeded` true/false picks one side. */
  async page(batchId: string, after: number, limit: number, onlySucceeded?: boolean): Promise<AnsweredLine[]> {
    let select = this.db
      .selectFrom('batch_lines')
      .select(['idx', 'custom_id', 'status', 'request_id', 'response', 'error'])
      .where('batch_id', '=', batchId)
      .where('idx', '>', after)
      .where('status', '!=', 'pending');
    if (onlySucceeded === true) select = select.where('status', '=', 'succeeded');
    if (onlySucceeded === false) select = select.where('status', '!=', 'succeeded');
    const rows = await select.orderBy('idx').limit(limit).execute();
    return rows.map(toAnsweredLine);
  }

  /** Drops every lease this instance holds (at shutdown): another instance runs those lines at once. */
  async releaseAll(owner: string): Promise<void> {
    await this.db.updateTable('batch_lines').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).where('status', '=', 'pending').execute();
  }
}
