/**
 * Tasks in the database. Every state change is a compare-and-set on the
 * `version` column; the change that makes a task final also settles or
 * refunds its charge and queues its final callback, in the same transaction,
 * so a crash can neither double a refund nor lose one. Polling work is taken
 * with leases, so two instances never work on one task at once.
 */
import { type ExpressionBuilder, sql, type Selectable } from 'kysely';
import { isUniqueViolation } from '../storage/columns.js';
import { isWellFormedId } from '../storage/ids.js';
import { olderThan, type PagePosition } from '../storage/paging.js';
import { BatchedReads } from '../storage/batched-reads.js';
import { PreparedQuery } from '../storage/prepared-query.js';
import { inTeams, paddedInList } from '../storage/id-lists.js';
import { newTaskId } from './ids.js';
import { jsonOrNull, toTaskRecord } from './rows.js';
import type { TaskDatabase, TaskDb, TasksTable } from './schema.js';
import { charge, insertDelivery, toColumns, type NewDelivery, type TaskChange } from './task-writes.js';
import { isFinal, type JsonObject, type TaskRecord } from './types.js';

const ID_ATTEMPTS = 5;
/** Tasks per rescheduling statement: three parameters each, well under both engines' limits. */
const RESCHEDULE_CHUNK = 500;

export interface NewTask {
  family: string;
  action: string;
  keyId: string;
  /** The key's team and user at submission, which the refund's log row carries too. */
  teamId?: string | null;
  userId?: string | null;
  channelId: string;
  accountId?: string | null;
  account?: JsonObject | null;
  parentId?: string | null;
  request: JsonObject;
  notifyHook?: string | null;
  cost: number;
  timeoutMs: number;
  /** The submitting instance holds the task until the upstream answered; a crash leaves it to the poller. */
  leaseOwner: string;
  leaseMs: number;
}

export interface Reschedule {
  id: string;
  nextPollAt: number;
}

export interface TaskListQuery {
  family?: string;
  status?: string;
  keyId?: string;
  /** Only tasks made with a key of one of these teams (a team admin's reach). */
  teamIds?: readonly string[];
  after?: PagePosition;
  limit: number;
}

export class TaskRepository {
  /** Every fetch reads a task by id: on SQLite, one compiled query; on PostgreSQL, one query per turn for all of them. */
  private readonly byId: (id: string) => Promise<Selectable<TasksTable> | undefined>;

  constructor(
    private readonly db: TaskDb,
    private readonly engine: 'sqlite' | 'postgres',
  ) {
    if (engine === 'postgres') {
      const byIds = new PreparedQuery(db, (db: TaskDb, ids: string[]) => db.selectFrom('tasks').selectAll().where(sql<boolean>`id = any(${ids}::text[])`));
      const reads = new BatchedReads(
        (ids: string[]) => byIds.execute(ids),
        (row) => row.id,
      );
      this.byId = (id) => reads.get(id);
    } else {
      const byId = new PreparedQuery(db, (db: TaskDb, id: string) => db.selectFrom('tasks').selectAll().where('id', '=', id));
      this.byId = async (id) => (await byId.execute(id))[0];
    }
  }

  /**
   * Inserts a task in status NOT_START and charges its cost to the key, both or
   * neither. Throws `quota_exhausted` when the key's quota cannot cover it.
   */
  async create(input: NewTask, now = Date.now()): Promise<TaskRecord> {
    for (let attempt = 1; ; attempt++) {
      const row: TasksTable = {
        id: newTaskId(now),
        family: input.family,
        action: input.action,
        key_id: input.keyId,
        team_id: input.teamId ?? null,
        user_id: input.userId ?? null,
        channel_id: input.channelId,
        account_id: input.accountId ?? null,
        account: jsonOrNull(input.account),
        upstream_id: null,
        upstream_data: null,
        parent_id: input.parentId ?? null,
        status: 'NOT_START',
        progress: 0,
        request: JSON.stringify(input.request),
        result: null,
        fail_reason: null,
        notify_hook: input.notifyHook ?? null,
        cost: input.cost,
        billing: input.cost > 0 ? 'charged' : 'none',
        version: 0,
        lease_owner: input.leaseOwner,
        lease_until: now + input.leaseMs,
        next_poll_at: now + input.leaseMs,
        poll_count: 0,
        submit_time: now,
        start_time: null,
        finish_time: null,
        timeout_at: now + input.timeoutMs,
        created_at: now,
        updated_at: now,
      };
      try {
        if (input.cost > 0) {
          await this.db.transaction().execute(async (trx) => {
            await trx.insertInto('tasks').values(row).execute();
            await charge(trx, input.keyId, input.cost);
          });
        } else {
          await this.db.insertInto('tasks').values(row).execute();
        }
        return toTaskRecord(row);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= ID_ATTEMPTS) throw error;
      }
    }
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.byId(id);
    return row && toTaskRecord(row);
  }

  /** A task as its owner may see it: another key's task does not exist for this one. */
  async getOwned(id: string, keyId: string, family: string): Promise<TaskRecord | undefined> {
    const task = await this.get(id);
    return task && task.keyId === keyId && task.family === family ? task : undefined;
  }

  /** The owner's tasks among `ids`, in the order asked; unknown ids are left out. */
  async listOwned(ids: readonly string[], keyId: string, family: string): Promise<TaskRecord[]> {
    const wellFormed = [...new Set(ids.filter(isWellFormedId))];
    if (wellFormed.length === 0) return [];
    // By id alone, owner checked here: with the owner in the WHERE clause, SQLite's planner
    // scanned the family's index (every task of the family) instead of looking up the ids.
    const rows = await this.db.selectFrom('tasks').selectAll().where('id', 'in', paddedInList(wellFormed)).execute();
    const byId = new Map(rows.filter((row) => row.key_id === keyId && row.family === family).map((row) => [row.id, toTaskRecord(row)]));
    const seen = new Set<string>();
    const out: TaskRecord[] = [];
    for (const id of ids) {
      const task = byId.get(id);
      if (task && !seen.has(id)) out.push(task);
      seen.add(id);
    }
    return out;
  }

  /** Tasks newest first, for operators (the admin API); page on with the last task of a page as `after`. */
  async list(query: TaskListQuery): Promise<TaskRecord[]> {
    let select = this.db.selectFrom('tasks').selectAll();
    if (query.family !== undefined) select = select.where('family', '=', query.family);
    if (query.status !== undefined) select = select.where('status', '=', query.status);
    if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
    if (query.teamIds !== undefined) select = select.where(inTeams(query.teamIds));
    if (query.after !== undefined) select = select.where(olderThan(query.after));
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map(toTaskRecord);
  }

  /** Unfinished tasks on one channel (and account), e.g. to queue behind them. */
  async countOpen(channelId: string, accountId?: string): Promise<number> {
    let query = this.db
      .selectFrom('tasks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('channel_id', '=', channelId)
      .where('status', 'in', ['NOT_START', 'SUBMITTED', 'IN_PROGRESS']);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Takes the lease on up to `limit` due tasks. One statement: each row's lease
   * condition is checked as it is updated, so two instances never both get a
   * row; on PostgreSQL, rows another instance is claiming are skipped, and
   * the due rows are picked in a CTE, evaluated once: as a subquery of the
   * UPDATE, a recheck after a concurrent claim could run it again and take
   * more than `limit` rows.
   */
  async claimDue(owner: string, leaseMs: number, limit: number, now = Date.now()): Promise<TaskRecord[]> {
    const isDue = (eb: ExpressionBuilder<TaskDatabase, 'tasks'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]);
    const due = this.db.selectFrom('tasks').select('id').where('next_poll_at', '<=', now).where(isDue).orderBy('next_poll_at').limit(limit);
    const lease = { lease_owner: owner, lease_until: now + leaseMs };
    const claim =
      this.engine === 'postgres'
        ? this.db
            .with('due', () => due.forUpdate().skipLocked())
            .updateTable('tasks')
            .where('id', 'in', (eb) => eb.selectFrom('due').select('id'))
        : this.db.updateTable('tasks').where('id', 'in', due);
    const rows = await claim.set(lease).where(isDue).returningAll().execute();
    return rows.map(toTaskRecord);
  }

  /**
   * Releases leased tasks that did not change, with their next poll time: one
   * UPDATE per chunk (`next_poll_at = CASE id WHEN … END`). Only the lease
   * holder's rows change.
   */
  async reschedule(owner: string, entries: readonly Reschedule[]): Promise<void> {
    const now = Date.now();
    for (let start = 0; start < entries.length; start += RESCHEDULE_CHUNK) {
      const chunk = entries.slice(start, start + RESCHEDULE_CHUNK);
      // The cast keeps PostgreSQL from typing the parameters as text.
      const cases = sql.join(
        chunk.map((entry) => sql`when ${entry.id} then cast(${entry.nextPollAt} as bigint)`),
        sql` `,
      );
      await this.db
        .updateTable('tasks')
        .set({
          next_poll_at: sql<number>`case id ${cases} end`,
          poll_count: sql<number>`poll_count + 1`,
          lease_owner: null,
          lease_until: null,
          updated_at: now,
        })
        .where(
          'id',
          'in',
          chunk.map((entry) => entry.id),
        )
        .where('lease_owner', '=', owner)
        .execute();
    }
  }

  /** Drops every lease this instance holds (at shutdown), so another instance can go on at once. */
  async releaseAll(owner: string): Promise<void> {
    await this.db.updateTable('tasks').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
  }

  /**
   * Applies a change if the task is still at the version it was read at.
   * Returns the new record, or undefined when another change came first. A
   * change to a final status settles the charge (success) or refunds it
   * (failure, cancel) and replaces pending progress callbacks by `delivery`.
   */
  async transition(task: TaskRecord, change: TaskChange, delivery?: NewDelivery, now = Date.now()): Promise<TaskRecord | undefined> {
    const status = change.status ?? task.status;
    const becomesFinal = isFinal(status) && !isFinal(task.status);
    const set = toColumns(change, now);
    set.version = task.version + 1;
    if (change.leaseOwner === undefined) {
      set.lease_owner = null;
      set.lease_until = null;
    }
    let refund = 0;
    if (becomesFinal) {
      set.next_poll_at = null;
      set.finish_time = change.finishTime ?? now;
      if (task.billing === 'charged') {
        set.billing = status === 'SUCCESS' ? 'settled' : 'refunded';
        if (status !== 'SUCCESS') refund = task.cost;
      }
    }
    const update = (db: TaskDb) => db.updateTable('tasks').set(set).where('id', '=', task.id).where('version', '=', task.version).returningAll().executeTakeFirst();
    // One statement is atomic by itself: a transaction only when more must commit with it.
    if (!becomesFinal && !delivery) {
      const row = await update(this.db);
      return row && toTaskRecord(row);
    }
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await update(trx);
      if (!updated) return undefined;
      if (refund > 0) await charge(trx, task.keyId, -refund);
      if (becomesFinal) {
        await trx
          .updateTable('task_deliveries')
          .set({ status: 'superseded', next_attempt_at: null, updated_at: now })
          .where('task_id', '=', task.id)
          .where('status', '=', 'pending')
          .where('final', '=', 0)
          .execute();
      }
      if (delivery) await insertDelivery(trx, task.id, delivery, now);
      return updated;
    });
    return row && toTaskRecord(row);
  }
}
