/**
 * Delegation rows and the lines handed to them. A delegation is leased like
 * a line (one instance acts on it at a time; a killed instance's is due
 * again once its lease ran out) and changed with a compare-and-set on its
 * lease owner. Lines are handed over only while pending, never tried and not
 * leased (`assign`), so a line the local runner took is never also sent
 * upstream; a delegated line is answered only while pending and still
 * handed to that delegation (`answer`), so it gets one answer.
 */
import { sql } from 'kysely';
import { newSortableId } from '../../../storage/ids.js';
import { answerColumns, type LineAnswer } from '../lines.js';
import { ACTIVE_DELEGATION_STATES, type DelegatedLine, type Delegation, type DelegationDb, type DelegationPatch, toDelegation } from './schema.js';

const due = (now: number) => sql<boolean>`(lease_until is null or lease_until < ${now})`;
/** Lines per `in (…)` list. */
const CHUNK = 500;

export class DelegationRepository {
  constructor(private readonly db: DelegationDb) {}

  async create(batchId: string, channelId: string, upstreamModel: string, now = Date.now()): Promise<string> {
    const id = newSortableId('bdel_', 16, now);
    await this.db
      .insertInto('batch_delegations')
      .values({
        id,
        batch_id: batchId,
        channel_id: channelId,
        upstream_model: upstreamModel,
        state: 'preparing',
        upstream_file_id: null,
        upstream_batch_id: null,
        upstream_status: null,
        output_file_id: null,
        error_file_id: null,
        lease_owner: null,
        lease_until: null,
        attempt: 0,
        polls: 0,
        next_check_at: now,
        error: null,
        create_started_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  /** Pending lines never tried and not leased, that no delegation has: those a plan may hand over. */
  async undelegated(batchId: string, after: number, limit: number, now = Date.now()): Promise<DelegatedLine[]> {
    const rows = await this.db
      .selectFrom('batch_lines')
      .select(['idx', 'custom_id', 'body'])
      .where('batch_id', '=', batchId)
      .where('idx', '>', after)
      .where('status', '=', 'pending')
      .where('delegation_id', 'is', null)
      .where('attempt', '=', 0)
      .where(due(now))
      .orderBy('idx')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ index: Number(row.idx), customId: row.custom_id, body: JSON.parse(row.body) as Record<string, unknown> }));
  }

  /** Hands the lines still free to the delegation: how many it got. */
  async assign(id: string, batchId: string, indexes: readonly number[], now = Date.now()): Promise<number> {
    let assigned = 0;
    for (let start = 0; start < indexes.length; start += CHUNK) {
      const result = await this.db
        .updateTable('batch_lines')
        .set({ delegation_id: id, updated_at: now })
        .where('batch_id', '=', batchId)
        .where('idx', 'in', indexes.slice(start, start + CHUNK))
        .where('status', '=', 'pending')
        .where('delegation_id', 'is', null)
        .where('attempt', '=', 0)
        .where(due(now))
        .executeTakeFirst();
      assigned += Number(result.numUpdatedRows);
    }
    return assigned;
  }

  async hasAny(batchId: string): Promise<boolean> {
    const row = await this.db.selectFrom('batch_delegations').select('id').where('batch_id', '=', batchId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Takes the lease on up to `limit` delegations due now, each with its own compare-and-set. */
  async claimDue(owner: string, leaseMs: number, limit: number, now = Date.now()): Promise<Delegation[]> {
    const rows = await this.db
      .selectFrom('batch_delegations')
      .select('id')
      .where('state', 'in', [...ACTIVE_DELEGATION_STATES])
      .where('next_check_at', '<=', now)
      .where(due(now))
      .orderBy('next_check_at')
      .limit(limit)
      .execute();
    const claimed: Delegation[] = [];
    for (const { id } of rows) {
      const row = await this.db
        .updateTable('batch_delegations')
        .set({ lease_owner: owner, lease_until: now + leaseMs, updated_at: now })
        .where('id', '=', id)
        .where('state', 'in', [...ACTIVE_DELEGATION_STATES])
        .where(due(now))
        .returningAll()
        .executeTakeFirst();
      if (row) claimed.push(toDelegation(row));
    }
    return claimed;
  }

  /** Applies a step's change while this instance holds the lease; the new record, or undefined when it lost it. */
  async update(delegation: Delegation, owner: string, patch: DelegationPatch, release: boolean, now = Date.now()): Promise<Delegation | undefined> {
    const row = await this.db
      .updateTable('batch_delegations')
      .set({ ...patch, ...(release ? { lease_owner: null, lease_until: null } : {}), updated_at: now })
      .where('id', '=', delegation.id)
      .where('lease_owner', '=', owner)
      .returningAll()
      .executeTakeFirst();
    return row && toDelegation(row);
  }

  async renew(owner: string, ids: readonly string[], until: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('batch_delegations')
      .set({ lease_until: until })
      .where('id', 'in', [...ids])
      .where('lease_owner', '=', owner)
      .execute();
  }

  async releaseAll(owner: string): Promise<void> {
    await this.db.updateTable('batch_delegations').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
  }

  /** The delegation's pending lines in order, `limit` after index `after`. */
  async lines(id: string, batchId: string, after: number, limit: number): Promise<DelegatedLine[]> {
    const rows = await this.db
      .selectFrom('batch_lines')
      .select(['idx', 'custom_id', 'body'])
      .where('batch_id', '=', batchId)
      .where('delegation_id', '=', id)
      .where('idx', '>', after)
      .where('status', '=', 'pending')
      .orderBy('idx')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ index: Number(row.idx), customId: row.custom_id, body: JSON.parse(row.body) as Record<string, unknown> }));
  }

  /** How many of the delegation's lines are still pending. */
  async pendingCount(id: string, batchId: string): Promise<number> {
    const row = await this.db
      .selectFrom('batch_lines')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('batch_id', '=', batchId)
      .where('delegation_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Which of these upstream batch ids a delegation of the channel already holds. */
  async heldUpstreamIds(channelId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('batch_delegations')
      .select('upstream_batch_id')
      .where('channel_id', '=', channelId)
      .where('upstream_batch_id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.upstream_batch_id).filter((id): id is string => id !== null));
  }

  /** Writes a delegated line's one answer: false when it was answered or handed back meanwhile. */
  async answer(id: string, batchId: string, index: number, answer: LineAnswer, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .updateTable('batch_lines')
      .set({ ...answerColumns(answer), updated_at: now })
      .where('batch_id', '=', batchId)
      .where('idx', '=', index)
      .where('delegation_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands the delegation's unanswered lines back to the local runner (counted as tried, so no plan takes them again): how many. */
  async handBack(id: string, batchId: string, now = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('batch_lines')
      .set({ delegation_id: null, attempt: sql<number>`attempt + 1`, lease_owner: null, lease_until: null, updated_at: now })
      .where('batch_id', '=', batchId)
      .where('delegation_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Ends the delegation's unanswered lines (our batch cancelled or expired): how many. */
  async endLines(id: string, batchId: string, answer: LineAnswer, now = Date.now()): Promise<number> {
    const result = await this.db
      .updateTable('batch_lines')
      .set({ status: answer.status, error: answer.error === null ? null : JSON.stringify(answer.error), updated_at: now })
      .where('batch_id', '=', batchId)
      .where('delegation_id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
