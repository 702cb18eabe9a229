/**
 * Submitting an image task, the path every submit endpoint shares: authorize
 * (the routing name `ig_<action>` is the model a key must be allowed), limit,
 * price, store the task and charge it in one transaction, hand it to the
 * upstream (another channel on a retryable failure, unless the task must
 * follow its parent), record the upstream's answer, log the request.
 * A submission the upstream refuses fails the task, which refunds it.
 */
import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { ClientKey } from '../../http/auth.js';
import { requestLogRow } from '../../billing/log-row.js';
import type { AppContext } from '../../http/context.js';
import {
  IMAGE_FAMILY,
  routingName,
  type ImageAction,
  type ImageSubmitPayload,
  type ImageTaskRequest,
  type ImageTaskUpstream,
} from '../../tasks/image-contract.js';
import type { SubmitOutcome, TaskCall, TaskRecord } from '../../tasks/types.js';
import type { Channel } from '../../core/channel.js';
import { CODE, type Envelope } from './errors.js';
import type { AccountFilter } from './schema.js';
import { accountJson, chooseTargets, type Target } from './targets.js';
import { tryInOrder } from '../../routing/failover.js';

export interface RequestMeta {
  requestId: string;
  clientIp: string;
  startedAt: number;
}

export interface SubmitPlan {
  action: ImageAction;
  request: ImageTaskRequest;
  payload: ImageSubmitPayload;
  notifyHook?: string;
  accountFilter?: AccountFilter;
  /** Follow-ups go where their parent went: no routing, no failover. */
  parent?: TaskRecord;
  target?: Target;
}

/**
 * How long the submitting instance holds a new task: past every attempt it may
 * make, so no other instance mistakes a slow submission for an interrupted one.
 */
export function submissionLeaseMs(ctx: AppContext): number {
  return Math.max(ctx.tasks.options.leaseMs, (ctx.settings.upstreamTimeoutMs + 1_000) * ctx.settings.maxAttempts + 5_000);
}

export function perCallPrice(ctx: AppContext, routeName: string): number {
  return ctx.prices.priceOf(routeName)?.perCall ?? 0;
}

export function imageUpstream(ctx: AppContext, channel: Channel): ImageTaskUpstream {
  const upstream = ctx.tasks.upstream(IMAGE_FAMILY, channel.type);
  if (!upstream) throw new GatewayError('permission', `channel ${channel.name} (type ${channel.type}) cannot run image tasks`);
  return upstream as ImageTaskUpstream;
}

export function taskCall(ctx: AppContext, channel: Channel, accountId: string | null): TaskCall {
  return {
    channel,
    apiKey: ctx.health.nextKey(channel),
    signal: AbortSignal.timeout(ctx.settings.upstreamTimeoutMs + 1_000),
    timeoutMs: ctx.settings.upstreamTimeoutMs,
    countOpen: () => ctx.tasks.tasks.countOpen(channel.id, accountId ?? undefined),
  };
}

/** Checks the key may use the action and has not hit its limits. Returns the price. */
export async function admit(ctx: AppContext, key: ClientKey, routeName: string): Promise<number> {
  ctx.auth.authorize(key, routeName);
  await ctx.limits.admit(key.record);
  return perCallPrice(ctx, routeName);
}

export async function submitImageTask(ctx: AppContext, key: ClientKey, plan: SubmitPlan, meta: RequestMeta): Promise<Envelope> {
  const routeName = routingName(plan.action);
  const tried: string[] = [];
  let cost = 0;
  let channelId: string | undefined;
  try {
    cost = await admit(ctx, key, routeName);
    const targets = plan.target ? [plan.target] : chooseTargets(ctx, routeName, plan.accountFilter);
    const engine = ctx.tasks;
    const first = targets[0];
    const task = await engine.tasks.create({
      family: IMAGE_FAMILY,
      action: plan.action,
      keyId: key.record.id,
      channelId: first.channel.id,
      accountId: first.account.instanceId,
      account: accountJson(first.account),
      parentId: plan.parent?.id ?? null,
      request: plan.request as unknown as Record<string, unknown>,
      notifyHook: plan.notifyHook ?? null,
      cost,
      timeoutMs: engine.timeoutFor(IMAGE_FAMILY),
      leaseOwner: engine.instanceId,
      leaseMs: submissionLeaseMs(ctx),
    });
    if (cost > 0) ctx.auth.noteSpend(key.record.keyHash, cost);
    const { outcome, target } = await handOver(ctx, task, targets, plan.payload, tried).catch(async (error: unknown) => {
      // The client never learns this task's id, so no callback reports it.
      const failReason = `the upstream refused the task: ${toGatewayError(error).message}`;
      await engine.change(task, { status: 'FAILURE', failReason }, { notify: false });
      throw error;
    });
    channelId = target.channel.id;
    const status = outcome.status ?? 'SUBMITTED';
    const now = Date.now();
    const updated = await engine.change(task, {
      status,
      progress: outcome.progress ?? 0,
      channelId: target.channel.id,
      accountId: target.account.instanceId,
      account: accountJson(target.account),
      upstreamId: outcome.upstreamId,
      upstreamData: outcome.upstreamData ?? null,
      startTime: status === 'SUBMITTED' || status === 'IN_PROGRESS' ? (outcome.startTime ?? now) : null,
      // A task waiting for its modal has nothing to poll until it times out.
      nextPollAt: status === 'MODAL' ? task.timeoutAt : engine.firstPollAt(now),
    });
    if (!updated) throw new GatewayError('internal', `task ${task.id} changed while it was being submitted`);
    log(ctx, key, meta, { routeName, channelId, tried, status: 200, cost });
    const ahead = outcome.queuePosition ?? 0;
    if (status === 'NOT_START' && ahead > 0) {
      return { code: CODE.queued, description: `In queue, there are ${ahead} tasks ahead`, properties: { numberOfQueues: ahead }, result: task.id };
    }
    return { code: CODE.submitted, description: 'Submit success', properties: {}, result: task.id };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    log(ctx, key, meta, { routeName, channelId, tried, status: error.status, cost: 0, error });
    throw error;
  }
}

/** Hands the task to the first target that takes it; a retryable refusal moves on to the next. */
async function handOver(
  ctx: AppContext,
  task: TaskRecord,
  targets: Target[],
  payload: ImageSubmitPayload,
  tried: string[],
): Promise<{ outcome: SubmitOutcome; target: Target }> {
  const { value, item } = await tryInOrder(
    targets,
    (target) => target.channel,
    { maxAttempts: ctx.settings.maxAttempts, health: ctx.health, tried, label: `image task ${task.id}` },
    (target) => imageUpstream(ctx, target.channel).submit(task, payload, taskCall(ctx, target.channel, target.account.instanceId)),
  );
  return { outcome: value, target: item };
}

interface LogFields {
  routeName: string;
  channelId?: string;
  tried: string[];
  status: number;
  cost: number;
  error?: GatewayError;
  /** Write the cost as spend too (work without a task; task charges are written with the task). */
  spend?: boolean;
}

export function log(ctx: AppContext, key: ClientKey, meta: RequestMeta, fields: LogFields): void {
  // A task's charge was written with the task; its log row only reports it.
  const spend = fields.spend && fields.cost > 0 ? { keyId: key.record.id, amount: fields.cost } : undefined;
  const row = requestLogRow({
    requestId: meta.requestId,
    keyId: key.record.id,
    family: IMAGE_FAMILY,
    model: fields.routeName,
    upstreamModel: null,
    channelId: fields.channelId ?? null,
    triedChannels: fields.tried,
    httpStatus: fields.status,
    errorKind: fields.error?.kind ?? null,
    errorMessage: fields.error?.message ?? null,
    stream: false,
    cost: fields.cost,
    clientIp: meta.clientIp,
    startedAt: meta.startedAt,
  });
  ctx.recorder.record(row, spend);
}
