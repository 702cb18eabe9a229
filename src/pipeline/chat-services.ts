/**
 * The services the chat pipeline uses, and nothing else of the gateway: the
 * request services every path routed to chat upstreams shares (services.ts:
 * authorization and limits, the quota hold, candidate channels and their
 * adapters, failover settings and channel health, the upstream call for one
 * attempt, the logger and the settlement), plus the stream's keep-alive
 * interval, session affinity, the reasoning sealer and the calls in flight.
 *
 * The gateway's own services are one object per context, built here on first
 * use (no allocation per request): `chatServices`, `requestServices` and
 * `taskServices` hand out the same object under the interface each path
 * takes. Tests build their own with fakes.
 */
import type { InFlightCalls } from '../core/in-flight.js';
import type { Logger } from 'pino';
import type { Channel } from '../core/channel.js';
import { ReasoningSealer } from '../core/reasoning-state.js';
import { CallStateMemo } from '../core/call-state-memo.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';
import type { AttemptTarget } from '../routing/failover.js';
import type { ChannelHealth } from '../routing/health.js';
import type { SessionAffinity } from '../routing/session-affinity.js';
import type { KeyRecord } from '../storage/types.js';
import type { TaskKind } from '../tasks/task-kind.js';
import type { TaskChange } from '../tasks/task-writes.js';
import type { TaskCall, TaskRecord, TaskUpstream } from '../tasks/types.js';
import type { ImageOperation, UpstreamAdapter, UpstreamCall } from '../upstreams/types.js';
import type { CallSignal } from '../core/call-signal.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import { chargeBudgets, holdQuota, holdTaskBudgets } from './quota-hold.js';
import type { RequestServices, TaskDraft, TaskServices } from './services.js';
import { settle, settleCount, type CountSettlement, type SettleInput } from './settle.js';
import { submissionLeaseMs, taskCall, taskUpstreamFor } from './task-calls.js';
import { logTaskRequest, type TaskLogFields, type TaskRequestMeta } from './task-log.js';
import { chatCandidates, imageCandidates, upstreamCallFor } from './upstream-call.js';

export interface ChatServices extends RequestServices {
  /** How long a streamed answer's first piece is awaited before keep-alive frames are sent, and their interval; 0: never. */
  readonly streamPingMs: number;
  /** Keeps a session's turns on one channel and key; undefined when the operator turned it off. */
  readonly affinity?: SessionAffinity;
  readonly sealer: ReasoningSealer;
  /** Calls' sealed state, for clients that send a call back without it. */
  readonly callStates: CallStateMemo;
  /** The calls running on this instance, which shutdown ends when its grace period is over. */
  readonly inFlight: InFlightCalls;
}

/** Agent sessions' calls for an hour, within 32 MiB of text (a sealed Gemini signature is one to a few kilobytes). */
const CALL_STATE_LIMITS = { maxEntries: 20_000, maxChars: 32 * 1024 * 1024, ttlMs: 60 * 60_000 };

/** Every path's services over one gateway context; its methods on the prototype, so nothing is made per request. */
class GatewayServices implements ChatServices, TaskServices {
  readonly health: ChannelHealth;
  readonly affinity?: SessionAffinity;
  readonly sealer: ReasoningSealer;
  readonly callStates = new CallStateMemo(CALL_STATE_LIMITS);
  readonly logger: Logger;
  readonly inFlight: InFlightCalls;

  constructor(private readonly ctx: AppContext) {
    this.health = ctx.health;
    this.affinity = ctx.affinity;
    this.sealer = ReasoningSealer.of(ctx.secrets);
    this.logger = ctx.logger;
    this.inFlight = ctx.inFlight;
  }

  get maxAttempts(): number {
    return this.ctx.settings.maxAttempts;
  }

  get streamPingMs(): number {
    return this.ctx.settings.streamPingMs;
  }

  authorize(key: ClientKey, model: string): void {
    this.ctx.auth.authorize(key, model);
  }

  admit(key: KeyRecord): Promise<void> | undefined {
    return this.ctx.limits.admit(key);
  }

  holdQuota(key: ClientKey, model: string, request: Parameters<RequestServices['holdQuota']>[2]) {
    return holdQuota(this.ctx, key, model, request);
  }

  candidates(model: string, accepts?: (adapter: UpstreamAdapter, channel: Channel) => boolean): Channel[] {
    return chatCandidates(this.ctx, model, accepts);
  }

  adapter(type: string): UpstreamAdapter {
    return this.ctx.adapters.get(type);
  }

  imageCandidates(model: string, accepts: (operation: ImageOperation, channel: Channel) => boolean): Channel[] {
    return imageCandidates(this.ctx, model, accepts);
  }

  imageOperation(type: string): ImageOperation | undefined {
    return this.ctx.adapters.images(type);
  }

  upstreamCall(target: AttemptTarget, request: { requestId: string; headers: UpstreamCall['clientHeaders']; sessionKey?: string }, signal: CallSignal): UpstreamCall {
    return upstreamCallFor(this.ctx, target, request, signal);
  }

  settle(input: SettleInput): void {
    settle(this.ctx, input);
  }

  settleCount(input: CountSettlement): void {
    settleCount(this.ctx, input);
  }

  createTask(draft: TaskDraft): Promise<TaskRecord> {
    const engine = this.ctx.tasks;
    return engine.tasks.create({ ...draft, timeoutMs: engine.timeoutFor(draft.family), leaseOwner: engine.instanceId, leaseMs: submissionLeaseMs(this.ctx) });
  }

  changeTask(task: TaskRecord, change: TaskChange, options?: { notify?: boolean }): Promise<TaskRecord | undefined> {
    return this.ctx.tasks.change(task, change, options);
  }

  firstPollAt(): number {
    return this.ctx.tasks.firstPollAt();
  }

  taskUpstream<Request extends object, Result extends object, Payload>(kind: TaskKind<Request, Result>, noun: string, channel: Channel): TaskUpstream<Request, Result, Payload> {
    return taskUpstreamFor(this.ctx, kind, noun, channel);
  }

  taskCall(channel: Channel, accountId?: string | null): TaskCall {
    return taskCall(this.ctx, channel, accountId);
  }

  holdBudgets(key: ClientKey, cost: number) {
    return holdTaskBudgets(this.ctx, key, cost);
  }

  noteCharge(key: ClientKey, cost: number, budgetHold?: QuotaHold): void {
    this.ctx.auth.noteSpend(key.record.keyHash, cost);
    void this.ctx.quota.adjust(key.record.id, cost);
    if (budgetHold) {
      void budgetHold.release(cost, 0);
      chargeBudgets(this.ctx, budgetHold, cost, 0);
    }
  }

  costsOf(channelId: string) {
    return this.ctx.channels.costsOf(channelId);
  }

  logTask(key: ClientKey, meta: TaskRequestMeta, fields: TaskLogFields): void {
    logTaskRequest(this.ctx, key, meta, fields);
  }
}

const built = new WeakMap<AppContext, GatewayServices>();

function gatewayServices(ctx: AppContext): GatewayServices {
  let services = built.get(ctx);
  if (!services) {
    services = new GatewayServices(ctx);
    built.set(ctx, services);
  }
  return services;
}

/** The gateway's own services, built once per context (no allocation per request). */
export function chatServices(ctx: AppContext): ChatServices {
  return gatewayServices(ctx);
}

/** The services of embeddings and token counting: the same object as `chatServices`. */
export function requestServices(ctx: AppContext): RequestServices {
  return gatewayServices(ctx);
}

/** The services of a task submission: the same object as `chatServices`. */
export function taskServices(ctx: AppContext): TaskServices {
  return gatewayServices(ctx);
}
