/**
 * Callback deliveries: queued as rows in the same transaction as the state
 * change they report, sent by the poll loop under a lease, and updated after
 * every attempt (count, last HTTP status or error, when delivered).
 */
import type { Selectable } from 'kysely';
import { toNullableNumber, toNumber } from '../storage/columns.js';
import type { TaskDeliveriesTable, TaskDb } from './schema.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'superseded';

export interface DeliveryRecord {
  id: string;
  taskId: string;
  url: string;
  /** The task status reported. */
  event: string;
  final: boolean;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
  createdAt: number;
}

export interface AttemptOutcome {
  ok: boolean;
  httpStatus?: number;
  error?: string;
}

function toRecord(row: Selectable<TaskDeliveriesTable>): DeliveryRecord {
  return {
    id: row.id,
    taskId: row.task_id,
    url: row.url,
    event: row.event,
    final: toNumber(row.final) !== 0,
    payload: row.payload,
    status: row.status as DeliveryStatus,
    attempts: toNumber(row.attempts),
    maxAttempts: toNumber(row.max_attempts),
    nextAttemptAt: toNullableNumber(row.next_attempt_at),
    lastStatus: toNullableNumber(row.last_status),
    lastError: row.last_error,
    deliveredAt: toNullableNumber(row.delivered_at),
    createdAt: toNumber(row.created_at),
  };
}

export class DeliveryRepository {
  constructor(
    private readonly db: TaskDb,
    private readonly engine: 'sqlite' | 'postgres',
  ) {}

  /** Takes the lease on due deliveries, oldest first (see TaskRepository.claimDue). */
  async claimDue(owner: string, leaseMs: number, limit: number, now = Date.now()): Promise<DeliveryRecord[]> {
    let due = this.db
      .selectFrom('task_deliveries')
      .select('id')
      .where('next_attempt_at', '<=', now)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .orderBy('created_at')
      .limit(limit);
    if (this.engine === 'postgres') due = due.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable('task_deliveries')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .where('id', 'in', due)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .execute();
    return rows.map(toRecord).sort((a, b) => a.createdAt - b.createdAt);
  }

  /**
   * Records one attempt. `retryAt` schedules another attempt after a failure;
   * without it a failure is final. Only the lease holder's record counts.
   */
  async recordAttempt(delivery: DeliveryRecord, owner: string, outcome: AttemptOutcome, retryAt?: number): Promise<void> {
    const now = Date.now();
    const status: DeliveryStatus = outcome.ok ? 'delivered' : retryAt === undefined ? 'failed' : 'pending';
    await this.db
      .updateTable('task_deliveries')
      .set({
        attempts: delivery.attempts + 1,
        status,
        next_attempt_at: status === 'pending' ? (retryAt as number) : null,
        last_status: outcome.httpStatus ?? null,
        last_error: outcome.error ?? null,
        delivered_at: outcome.ok ? now : null,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
      })
      .where('id', '=', delivery.id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async listForTask(taskId: string): Promise<DeliveryRecord[]> {
    const rows = await this.db.selectFrom('task_deliveries').selectAll().where('task_id', '=', taskId).orderBy('created_at').execute();
    return rows.map(toRecord);
  }

  async releaseAll(owner: string): Promise<void> {
    await this.db.updateTable('task_deliveries').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', owner).execute();
  }
}
