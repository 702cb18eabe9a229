/**
 * The narrow services every request path takes instead of the gateway's
 * context, so that tests drive each path with fakes:
 * - `AdmissionServices`: what every routed request uses (the key's model
 *   allow-list and limits, the failover bounds, channel health, the logger);
 * - `RequestServices`: a request routed to chat upstreams (generation,
 *   embeddings, token counting): the quota hold, candidate channels and their
 *   adapters, the upstream call of one attempt, the settlement;
 * - `TaskServices`: a task submission: storing the task, the task upstream
 *   of a channel, the charge, the request log row.
 * `ChatServices` (chat-services.ts) adds what only generation uses. All are
 * one object per gateway, built from its context in chat-services.ts.
 */
import type { Logger } from 'pino';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { CallSignal } from '../core/call-signal.js';
import type { Channel } from '../core/channel.js';
import type { ChannelCosts } from '../config/channel-costs.js';
import type { ClientKey } from '../http/auth.js';
import type { AttemptTarget } from '../routing/failover.js';
import type { ChannelHealth } from '../routing/health.js';
import type { KeyRecord } from '../storage/types.js';
import type { NewTask } from '../tasks/repository.js';
import type { TaskKind } from '../tasks/task-kind.js';
import type { TaskChange } from '../tasks/task-writes.js';
import type { TaskCall, TaskRecord, TaskUpstream } from '../tasks/types.js';
import type { ImageOperation, UpstreamAdapter, UpstreamCall } from '../upstreams/types.js';
import type { CountSettlement, SettleInput } from './settle.js';
import type { TaskLogFields, TaskRequestMeta } from './task-log.js';

export interface AdmissionServices {
  /** Throws when the key may not use the model (or has spent its quota). */
  authorize(key: ClientKey, model: string): void;
  /** Counts the request against the key's rate limits; throws when over. Undefined for a key without limits. */
  admit(key: KeyRecord): Promise<void> | undefined;
  readonly maxAttempts: number;
  readonly health: ChannelHealth;
  readonly logger: Logger;
}

export interface RequestServices extends AdmissionServices {
  /** Holds the request's possible cost against the key's quota; undefined (not a promise) without a quota. */
  holdQuota(
    key: ClientKey,
    model: string,
    request: { inputBytes: number; body?: Record<string, unknown>; outputTokens?: number; impliedOutputTokens?: number; perUnitUsd?: number },
  ): Promise<QuotaHold | undefined> | undefined;
  /** Channels that may serve the model, in the order to try them; `accepts` narrows them to adapters that can do the work. */
  candidates(model: string, accepts?: (adapter: UpstreamAdapter, channel: Channel) => boolean): Channel[];
  adapter(type: string): UpstreamAdapter;
  /** Channels that may serve the model's images (chat adapter or not), in the order to try them; `accepts` narrows them by the type's image operation. */
  imageCandidates(model: string, accepts: (operation: ImageOperation, channel: Channel) => boolean): Channel[];
  /** A channel type's image operation (its chat adapter's, or its own); undefined when it makes none. */
  imageOperation(type: string): ImageOperation | undefined;
  upstreamCall(target: AttemptTarget, request: { requestId: string; headers: UpstreamCall['clientHeaders']; sessionKey?: string }, signal: CallSignal): UpstreamCall;
  /** Settles the request: usage completed and priced, the log row and spend recorded, the hold released. */
  settle(input: SettleInput): void;
  /** Settles a token count: its log row, nothing charged. */
  settleCount(input: CountSettlement): void;
}

/** A new task as a submission stores it; the services add its timeout and this instance's lease. */
export type TaskDraft = Omit<NewTask, 'timeoutMs' | 'leaseOwner' | 'leaseMs'>;

export interface TaskServices extends AdmissionServices {
  /** Stores the task and its charge in one transaction, leased to this instance while it is submitted. */
  createTask(draft: TaskDraft): Promise<TaskRecord>;
  /** A compare-and-set change of the task (undefined when it changed meanwhile). */
  changeTask(task: TaskRecord, change: TaskChange, options?: { notify?: boolean }): Promise<TaskRecord | undefined>;
  /** When a task just accepted is first polled. */
  firstPollAt(): number;
  /** The upstream that runs a kind on a channel's type; throws a 403 when the type cannot. */
  taskUpstream<Request extends object, Result extends object, Payload>(kind: TaskKind<Request, Result>, noun: string, channel: Channel): TaskUpstream<Request, Result, Payload>;
  /** How a submission calls a task upstream: one credential, a deadline, the outbound guard. */
  taskCall(channel: Channel, accountId?: string | null): TaskCall;
  /** Holds a task's charge against the key's budgets before the task is stored (throws when one is spent); undefined without budgets. */
  holdBudgets(key: ClientKey, cost: number): Promise<QuotaHold> | undefined;
  /** A task's charge (written with the task) noted against the key's limits and quota, and its budgets (ending their hold). */
  noteCharge(key: ClientKey, cost: number, budgetHold?: QuotaHold): void;
  /** The serving channel's cost table, for what its provider charges. */
  costsOf(channelId: string): ChannelCosts | undefined;
  /** The request log row of the submission. */
  logTask(key: ClientKey, meta: TaskRequestMeta, fields: TaskLogFields): void;
}
