/**
 * The task tables as Kysely sees them (see storage/migrations/0003_tasks.ts),
 * plus the one column of `keys` the engine writes: spend, charged and refunded
 * in the same transaction as the task's state change.
 */
import type { Kysely } from 'kysely';
import type { Store } from '../storage/types.js';

export interface TasksTable {
  id: string;
  family: string;
  action: string;
  key_id: string;
  /** The key's team and user at submission (null before migration 0010 and for keys of none). */
  team_id: string | null;
  user_id: string | null;
  channel_id: string;
  account_id: string | null;
  account: string | null;
  upstream_id: string | null;
  upstream_data: string | null;
  parent_id: string | null;
  status: string;
  progress: number;
  request: string;
  result: string | null;
  fail_reason: string | null;
  notify_hook: string | null;
  cost: number;
  billing: string;
  version: number;
  lease_owner: string | null;
  lease_until: number | null;
  next_poll_at: number | null;
  poll_count: number;
  submit_time: number;
  start_time: number | null;
  finish_time: number | null;
  timeout_at: number;
  created_at: number;
  updated_at: number;
}

export interface TaskDeliveriesTable {
  id: string;
  task_id: string;
  url: string;
  event: string;
  final: number;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface KeySpendTable {
  id: string;
  used: number;
  quota: number | null;
}

export interface TaskDatabase {
  tasks: TasksTable;
  task_deliveries: TaskDeliveriesTable;
  keys: KeySpendTable;
}

export type TaskDb = Kysely<TaskDatabase>;

export function taskDb(store: Store): TaskDb {
  return store.db as TaskDb;
}
