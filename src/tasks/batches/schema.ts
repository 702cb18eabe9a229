/**
 * Batches and their lines as Kysely sees them (storage/migrations/0016) and
 * as the rest of the gateway reads them. One batch core serves OpenAI's
 * `/v1/batches` (`api: 'openai'`, input from a file, results in output and
 * error files) and Anthropic's Message Batches (`api: 'anthropic'`, requests
 * inline, results read from the lines); statuses are OpenAI's words, which
 * the Anthropic family maps to its own.
 */
import type { Kysely } from 'kysely';
import { newSortableId } from '../../storage/ids.js';
import type { Store } from '../../storage/types.js';
import type { FilesTable } from '../../storage/files.js';

export type BatchApi = 'openai' | 'anthropic';
export type BatchStatus = 'validating' | 'failed' | 'in_progress' | 'finalizing' | 'completed' | 'expired' | 'cancelling' | 'cancelled';
export type LineStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled' | 'expired';

/** The endpoints a batch may name, per API (each served by its family's batch line handler, server/batch-runner.ts). */
export const BATCH_ENDPOINTS: Readonly<Record<BatchApi, readonly string[]>> = {
  openai: ['/v1/chat/completions', '/v1/responses', '/v1/embeddings', '/v1/completions', '/v1/moderations'],
  anthropic: ['/v1/messages'],
};

export const FINAL_BATCH_STATUSES: readonly BatchStatus[] = ['failed', 'completed', 'expired', 'cancelled'];

export interface BatchesTable {
  id: string;
  api: string;
  key_id: string;
  team_id: string | null;
  user_id: string | null;
  endpoint: string;
  input_file_id: string | null;
  completion_window: string;
  status: string;
  errors: string | null;
  metadata: string | null;
  output_file_id: string | null;
  error_file_id: string | null;
  total: number;
  counts: string | null;
  usage: string | null;
  version: number;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  updated_at: number;
  /** Seconds after their creation the output and error files expire (`output_expires_after`, migration 0019); absent or null: kept until deleted. */
  output_expires_seconds?: number | null;
}

export interface BatchLinesTable {
  batch_id: string;
  idx: number;
  custom_id: string;
  body: string;
  status: string;
  lease_owner: string | null;
  lease_until: number | null;
  attempt: number;
  request_id: string | null;
  response: string | null;
  error: string | null;
  /** The upstream batch the line was handed to (delegation/); null: the gateway runs it. */
  delegation_id: string | null;
  updated_at: number;
}

export type BatchDb = Kysely<{ batches: BatchesTable; batch_lines: BatchLinesTable; files: FilesTable }>;

export function batchDb(store: Pick<Store, 'db'>): BatchDb {
  return store.db as BatchDb;
}

/** How many lines ended each way. */
export interface LineCounts {
  pending: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  expired: number;
}

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

export interface BatchRecord {
  id: string;
  api: BatchApi;
  keyId: string;
  teamId: string | null;
  userId: string | null;
  endpoint: string;
  inputFileId: string | null;
  completionWindow: string;
  status: BatchStatus;
  errors: BatchError[] | null;
  metadata: Record<string, string> | null;
  outputFileId: string | null;
  errorFileId: string | null;
  total: number;
  /** Set once the batch is final; a running batch's are counted from its lines. */
  counts: LineCounts | null;
  usage: Record<string, unknown> | null;
  version: number;
  createdAt: number;
  inProgressAt: number | null;
  expiresAt: number;
  finalizingAt: number | null;
  completedAt: number | null;
  failedAt: number | null;
  expiredAt: number | null;
  cancellingAt: number | null;
  cancelledAt: number | null;
  /** Seconds after their creation the output and error files expire; null: kept until deleted. */
  outputExpiresSeconds: number | null;
}

/** One line as the runner takes it. */
export interface BatchLine {
  batchId: string;
  index: number;
  customId: string;
  body: Record<string, unknown>;
  attempt: number;
}

/** One answered line, as the output files and the results are written from. */
export interface AnsweredLine {
  index: number;
  customId: string;
  status: LineStatus;
  requestId: string | null;
  response: { status_code: number; body: unknown } | null;
  error: { code: string; message: string } | null;
}

export function newBatchId(api: BatchApi, now = Date.now()): string {
  return newSortableId(api === 'openai' ? 'batch_' : 'msgbatch_', 16, now);
}

/** A batch's completion window: OpenAI's `24h`, and Anthropic's 24 hours. */
const WINDOW_MS = 24 * 3_600_000;

export interface NewBatch {
  api: BatchApi;
  key: { id: string; teamId: string | null; userId: string | null };
  endpoint: string;
  total: number;
  inputFileId?: string | null;
  metadata?: Record<string, string> | null;
  outputExpiresSeconds?: number | null;
  /** The input's errors: the batch is born `failed`, with nothing to run. */
  errors?: BatchError[];
}

/** The row of a new batch: running at once, or failed when its input was wrong. */
export function newBatchRow(batch: NewBatch, now = Date.now()): BatchesTable {
  const failed = batch.errors !== undefined;
  return {
    id: newBatchId(batch.api, now),
    api: batch.api,
    key_id: batch.key.id,
    team_id: batch.key.teamId,
    user_id: batch.key.userId,
    endpoint: batch.endpoint,
    input_file_id: batch.inputFileId ?? null,
    completion_window: '24h',
    status: failed ? 'failed' : 'in_progress',
    errors: failed ? JSON.stringify(batch.errors) : null,
    metadata: batch.metadata ? JSON.stringify(batch.metadata) : null,
    output_file_id: null,
    error_file_id: null,
    total: batch.total,
    counts: failed ? JSON.stringify({ pending: 0, succeeded: 0, failed: 0, cancelled: 0, expired: 0 } satisfies LineCounts) : null,
    usage: null,
    version: 0,
    created_at: now,
    in_progress_at: failed ? null : now,
    expires_at: now + WINDOW_MS,
    finalizing_at: null,
    completed_at: null,
    failed_at: failed ? now : null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    updated_at: now,
    output_expires_seconds: batch.outputExpiresSeconds ?? null,
  };
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const time = (value: number | null): number | null => (value === null ? null : Number(value));

export function toBatchRecord(row: BatchesTable): BatchRecord {
  return {
    id: row.id,
    api: row.api as BatchApi,
    keyId: row.key_id,
    teamId: row.team_id,
    userId: row.user_id,
    endpoint: row.endpoint,
    inputFileId: row.input_file_id,
    completionWindow: row.completion_window,
    status: row.status as BatchStatus,
    errors: json(row.errors),
    metadata: json(row.metadata),
    outputFileId: row.output_file_id,
    errorFileId: row.error_file_id,
    total: Number(row.total),
    counts: json(row.counts),
    usage: json(row.usage),
    version: Number(row.version),
    createdAt: Number(row.created_at),
    inProgressAt: time(row.in_progress_at),
    expiresAt: Number(row.expires_at),
    finalizingAt: time(row.finalizing_at),
    completedAt: time(row.completed_at),
    failedAt: time(row.failed_at),
    expiredAt: time(row.expired_at),
    cancellingAt: time(row.cancelling_at),
    cancelledAt: time(row.cancelled_at),
    outputExpiresSeconds: time(row.output_expires_seconds ?? null),
  };
}

export function toAnsweredLine(row: Pick<BatchLinesTable, 'idx' | 'custom_id' | 'status' | 'request_id' | 'response' | 'error'>): AnsweredLine {
  return {
    index: Number(row.idx),
    customId: row.custom_id,
    status: row.status as LineStatus,
    requestId: row.request_id,
    response: json(row.response),
    error: json(row.error),
  };
}
