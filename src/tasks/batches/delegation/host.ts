/**
 * What the delegation state machine needs from above the task layer: the
 * upstream's Batch API for a delegation's channel (upstreams/openai-batch-api.ts
 * behind it), where a model's lines would go, and the billing of a line the
 * upstream answered. Errors are GatewayErrors: a 4xx is the upstream
 * refusing (permanent), anything else it being unreachable for now.
 */
import type { BatchRecord } from '../schema.js';
import type { DelegatedLine, Delegation } from './schema.js';
import type { DelegationTarget } from './grouping.js';

export interface UpstreamBatch {
  id: string;
  /** OpenAI's words: validating, in_progress, finalizing, completed, failed, expired, cancelling, cancelled. */
  status: string;
  outputFileId: string | null;
  errorFileId: string | null;
}

/** One line of an upstream batch's output or error file. */
export interface UpstreamResult {
  customId: string;
  /** The line's answer; null when the upstream never ran it (expired, cancelled). */
  response: { statusCode: number; body: unknown } | null;
}

export const FINAL_UPSTREAM_STATUSES: ReadonlySet<string> = new Set(['completed', 'expired', 'cancelled', 'failed']);

export interface UpstreamBatchClient {
  /** Uploads the JSONL as a `batch` file; its id. */
  upload(delegation: Delegation, jsonl: AsyncIterable<string>): Promise<string>;
  /** The upstream batch made for this delegation before (its metadata names it), if any. */
  find(delegation: Delegation): Promise<UpstreamBatch | undefined>;
  create(delegation: Delegation, fileId: string, endpoint: string): Promise<UpstreamBatch>;
  get(delegation: Delegation): Promise<UpstreamBatch>;
  cancel(delegation: Delegation): Promise<UpstreamBatch>;
  /** A result file's lines, read as they arrive. */
  results(delegation: Delegation, fileId: string): AsyncIterable<UpstreamResult>;
  /** Deletes a file of the delegation from the upstream's storage. */
  remove(delegation: Delegation, fileId: string): Promise<void>;
}

export interface DelegationHost {
  client: UpstreamBatchClient;
  /** The endpoints some channel type may serve through its batch API. */
  delegates(endpoint: string): boolean;
  /** Where the batch's lines of `model` go, or undefined when they stay local (also a key over its quota or budget). */
  routeOf(batch: BatchRecord): Promise<((model: string) => DelegationTarget | undefined) | undefined>;
  /** Bills an answered line at the batch price with its request-log row. */
  bill(batch: BatchRecord, delegation: Delegation, line: DelegatedLine, answer: { statusCode: number; body: unknown }, requestId: string): Promise<void>;
  newRequestId(): string;
}
