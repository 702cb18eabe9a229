/** Conversions between task rows and records. */
import type { Selectable } from 'kysely';
import { fromJson, toNullableNumber, toNumber } from '../storage/columns.js';
import type { TasksTable } from './schema.js';
import type { BillingState, JsonObject, TaskRecord, TaskStatus } from './types.js';

export function toTaskRecord(row: Selectable<TasksTable>): TaskRecord {
  return {
    id: row.id,
    family: row.family,
    action: row.action,
    keyId: row.key_id,
    teamId: row.team_id ?? null,
    userId: row.user_id ?? null,
    channelId: row.channel_id,
    accountId: row.account_id,
    account: fromJson<JsonObject>(row.account),
    upstreamId: row.upstream_id,
    upstreamData: fromJson<JsonObject>(row.upstream_data),
    parentId: row.parent_id,
    status: row.status as TaskStatus,
    progress: toNumber(row.progress),
    request: fromJson<JsonObject>(row.request) ?? {},
    result: fromJson<JsonObject>(row.result),
    failReason: row.fail_reason,
    notifyHook: row.notify_hook,
    cost: toNumber(row.cost),
    billing: row.billing as BillingState,
    version: toNumber(row.version),
    leaseOwner: row.lease_owner,
    leaseUntil: toNullableNumber(row.lease_until),
    nextPollAt: toNullableNumber(row.next_poll_at),
    pollCount: toNumber(row.poll_count),
    submitTime: toNumber(row.submit_time),
    startTime: toNullableNumber(row.start_time),
    finishTime: toNullableNumber(row.finish_time),
    timeoutAt: toNumber(row.timeout_at),
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

export const jsonOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
