/**
 * What the delegation state machine needs from above the task layer: the
 * upstream's batch API for a delegation's channel (OpenAI's Batch API or
 * Anthropic's Message Batches API behind it), where a model's lines would
 * go, and the billing of a line the upstream answered. Errors are
 * GatewayErrors: a 4xx is the upstream refusing (permanent), anything else
 * it being unreachable for now.
 */
import type { BatchRecord } from '../schema.js';
import type { DelegatedLine, Delegation } from './schema.js';
import type { DelegationTarget } from './grouping.js';

export interface UpstreamBatch {
  id: string;
  /** The upstream's own word for its state (OpenAI: validating … cancelled; Anthropic: in_progress, canceling, ended), kept for the logs. */
  status: string;
  /** It will change no more: its results can be read. */
  ended: boolean;
  /** A cancel was asked for already. */
  cancelling: boolean;
  /** OpenAI's result files, once it ended; Anthropic's results are read by the batch's id. */
  outputFileId: string | null;
  errorFileId: string | null;
}

/** One line of an upstream batch's results. */
export interface UpstreamResult {
  customId: string;
  /** The line's answer; null when the upstream never ran it (expired, cancelled). */
  response: { statusCode: number; body: unknown } | null;
}

/** One request of an upstream batch: our line's index as `customId`, its body with the upstream model. */
export interface UpstreamRequest {
  customId: string;
  body: Record<string, unknown>;
}

/** The requests of a delegation, page by page (read from the store as they are sent). */
export type UpstreamRequests = AsyncIterable<readonly UpstreamRequest[]>;

/** What an earlier create of the delegation sent, to recognise the batch it made when its answer was lost. */
export interface CreateAttempt {
  startedAt: number;
  lines: number;
}

export interface UpstreamBatchClient {
  /** Uploads the requests as a file the create then names, its id (OpenAI); absent where the create carries the requests itself (Anthropic). */
  upload?(delegation: Delegation, endpoint: string, requests: UpstreamRequests): Promise<string>;
  /** Creates the upstream batch: from the uploaded file, or with the requests inline. */
  create(delegation: Delegation, endpoint: string, input: { fileId: string } | { requests: UpstreamRequests }): Promise<UpstreamBatch>;
  /** The upstream batches that may be the one an earlier create made (OpenAI: its metadata names the delegation; Anthropic: made since, with as many requests). */
  find(delegation: Delegation, attempt: CreateAttempt): Promise<UpstreamBatch[]>;
  get(delegation: Delegation): Promise<UpstreamBatch>;
  cancel(delegation: Delegation): Promise<UpstreamBatch>;
  /** The ended batch's results, read as they arrive. */
  results(delegation: Delegation): AsyncIterable<UpstreamResult>;
  /** Deletes a file of the delegation from the upstream's storage (OpenAI). */
  removeFile?(delegation: Delegation, fileId: string): Promise<void>;
  /** Deletes the ended upstream batch itself, its results with it (Anthropic). */
  removeBatch?(delegation: Delegation): Promise<void>;
}

export interface DelegationHost {
  /** The batch API of the delegation's channel. */
  client(delegation: Delegation): UpstreamBatchClient;
  /** The endpoints some channel type may serve through its batch API. */
  delegates(endpoint: string): boolean;
  /** Where the batch's lines of `model` go, or undefined when they stay local (also a key over its quota or budget). */
  routeOf(batch: BatchRecord): Promise<((model: string) => DelegationTarget | undefined) | undefined>;
  /** Bills an answered line at the batch price with its request-log row. */
  bill(batch: BatchRecord, delegation: Delegation, line: DelegatedLine, answer: { statusCode: number; body: unknown }, requestId: string): Promise<void>;
  newRequestId(): string;
}
