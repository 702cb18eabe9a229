/**
 * A delegation: a group of one batch's lines handed to one upstream batch
 * (one channel, one upstream model, as OpenAI's Batch API takes one model
 * per batch), as Kysely sees its row (storage/migrations/0018, 0021) and as
 * the state machine reads it (machine.ts).
 */
import type { Kysely } from 'kysely';
import type { FilesTable } from '../../../storage/files.js';
import type { Store } from '../../../storage/types.js';
import type { BatchesTable, BatchLinesTable } from '../schema.js';

export type DelegationState = 'preparing' | 'submitted' | 'collecting' | 'done' | 'abandoned';

/** The states the loop still acts on. */
export const ACTIVE_DELEGATION_STATES: readonly DelegationState[] = ['preparing', 'submitted', 'collecting'];

export interface BatchDelegationsTable {
  id: string;
  batch_id: string;
  channel_id: string;
  upstream_model: string;
  state: string;
  upstream_file_id: string | null;
  upstream_batch_id: string | null;
  /** The upstream batch's status when last looked at. */
  upstream_status: string | null;
  /** The upstream batch's output and error files, once it ended. */
  output_file_id: string | null;
  error_file_id: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  /** Failed tries of the current step in a row (the upstream unreachable): the backoff. */
  attempt: number;
  /** Looks at the upstream batch so far: the poll backoff. */
  polls: number;
  next_check_at: number;
  error: string | null;
  /** When a create was last sent upstream (null: never): the batch a lost answer made is looked for from then. */
  create_started_at: number | null;
  created_at: number;
  updated_at: number;
}

export type DelegationDb = Kysely<{ batches: BatchesTable; batch_lines: BatchLinesTable; batch_delegations: BatchDelegationsTable; files: FilesTable }>;

export function delegationDb(store: Pick<Store, 'db'>): DelegationDb {
  return store.db as DelegationDb;
}

export interface Delegation {
  id: string;
  batchId: string;
  channelId: string;
  upstreamModel: string;
  state: DelegationState;
  upstreamFileId: string | null;
  upstreamBatchId: string | null;
  upstreamStatus: string | null;
  outputFileId: string | null;
  errorFileId: string | null;
  attempt: number;
  polls: number;
  nextCheckAt: number;
  error: string | null;
  createStartedAt: number | null;
}

export function toDelegation(row: BatchDelegationsTable): Delegation {
  return {
    id: row.id,
    batchId: row.batch_id,
    channelId: row.channel_id,
    upstreamModel: row.upstream_model,
    state: row.state as DelegationState,
    upstreamFileId: row.upstream_file_id,
    upstreamBatchId: row.upstream_batch_id,
    upstreamStatus: row.upstream_status,
    outputFileId: row.output_file_id,
    errorFileId: row.error_file_id,
    attempt: Number(row.attempt),
    polls: Number(row.polls),
    nextCheckAt: Number(row.next_check_at),
    error: row.error,
    createStartedAt: row.create_started_at === null ? null : Number(row.create_started_at),
  };
}

/** The columns a step changes. */
export type DelegationPatch = Partial<
  Pick<
    BatchDelegationsTable,
    'state' | 'upstream_file_id' | 'upstream_batch_id' | 'upstream_status' | 'output_file_id' | 'error_file_id' | 'attempt' | 'polls' | 'next_check_at' | 'error' | 'create_started_at'
  >
>;

/** A line handed to a delegation, as its upstream JSONL is written from it. */
export interface DelegatedLine {
  index: number;
  customId: string;
  body: Record<string, unknown>;
}
