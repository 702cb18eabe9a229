/**
 * What a task's change writes beside the task row: the columns it sets, the
 * charge or refund on the key, the callback delivery it queues. The
 * repository runs these inside its own transactions.
 */
import { sql, type Transaction, type Updateable } from 'kysely';
import { GatewayError } from '../core/errors.js';
import { newId } from '../storage/ids.js';
import { jsonOrNull } from './rows.js';
import type { TaskDatabase, TasksTable } from './schema.js';
import type { JsonObject, TaskStatus } from './types.js';

/** Float sums of prices must not refuse a charge that exactly fits the quota. */
const QUOTA_EPSILON = 1e-9;

/** Fields a transition may change. `undefined` leaves a field alone. */
export interface TaskChange {
  status?: TaskStatus;
  progress?: number;
  channelId?: string;
  accountId?: string | null;
  account?: JsonObject | null;
  upstreamId?: string | null;
  upstreamData?: JsonObject | null;
  request?: JsonObject;
  result?: JsonObject | null;
  failReason?: string | null;
  startTime?: number | null;
  finishTime?: number | null;
  nextPollAt?: number | null;
  pollCount?: number;
  timeoutAt?: number;
  /** Keep (or take) the lease instead of releasing it. */
  leaseOwner?: string;
  leaseUntil?: number;
}

export interface NewDelivery {
  url: string;
  event: string;
  final: boolean;
  payload: string;
  maxAttempts: number;
}

export function toColumns(change: TaskChange, now: number): Updateable<TasksTable> {
  const set: Updateable<TasksTable> = { updated_at: now };
  if (change.status !== undefined) set.status = change.status;
  if (change.progress !== undefined) set.progress = change.progress;
  if (change.channelId !== undefined) set.channel_id = change.channelId;
  if (change.accountId !== undefined) set.account_id = change.accountId;
  if (change.account !== undefined) set.account = jsonOrNull(change.account);
  if (change.upstreamId !== undefined) set.upstream_id = change.upstreamId;
  if (change.upstreamData !== undefined) set.upstream_data = jsonOrNull(change.upstreamData);
  if (change.request !== undefined) set.request = JSON.stringify(change.request);
  if (change.result !== undefined) set.result = jsonOrNull(change.result);
  if (change.failReason !== undefined) set.fail_reason = change.failReason;
  if (change.startTime !== undefined) set.start_time = change.startTime;
  if (change.finishTime !== undefined) set.finish_time = change.finishTime;
  if (change.nextPollAt !== undefined) set.next_poll_at = change.nextPollAt;
  if (change.pollCount !== undefined) set.poll_count = change.pollCount;
  if (change.timeoutAt !== undefined) set.timeout_at = change.timeoutAt;
  if (change.leaseOwner !== undefined) set.lease_owner = change.leaseOwner;
  if (change.leaseUntil !== undefined) set.lease_until = change.leaseUntil;
  return set;
}

/** Adds (or, negative, gives back) spend; a positive charge must fit the key's quota. */
export async function charge(trx: Transaction<TaskDatabase>, keyId: string, amount: number): Promise<void> {
  // The cast keeps PostgreSQL from typing the parameter as text.
  let update = trx
    .updateTable('keys')
    .set({ used: sql<number>`used + cast(${amount} as double precision)` })
    .where('id', '=', keyId);
  if (amount > 0) {
    update = update.where((eb) => eb.or([eb('quota', 'is', null), eb(sql<number>`used + cast(${amount} as double precision)`, '<=', sql<number>`quota + ${QUOTA_EPSILON}`)]));
  }
  const result = await update.executeTakeFirst();
  if (amount > 0 && Number(result.numUpdatedRows) !== 1) {
    throw new GatewayError('quota_exhausted', `insufficient balance: this task costs ${amount} and the key's quota cannot cover it`);
  }
}

export async function insertDelivery(trx: Transaction<TaskDatabase>, taskId: string, delivery: NewDelivery, now: number): Promise<void> {
  await trx
    .insertInto('task_deliveries')
    .values({
      id: newId('dlv'),
      task_id: taskId,
      url: delivery.url,
      event: delivery.event,
      final: delivery.final ? 1 : 0,
      payload: delivery.payload,
      status: 'pending',
      attempts: 0,
      max_attempts: delivery.maxAttempts,
      next_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      last_status: null,
      last_error: null,
      delivered_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
