/**
 * Submitting a task, the path every asynchronous family shares (the task
 * side's `serveChat`): admit the key (model allowed, limits) and price the
 * task, store it and its charge in one transaction, hand it to the first
 * target that takes it (another one on a retryable refusal), record the
 * upstream's answer, log the request. A submission no target takes fails the
 * task, which refunds it. Families keep validation, pricing and rendering;
 * they hand this a submission and render what it returns. It takes the
 * narrow task services (services.ts), not the gateway, and admits the key as
 * every other path does (request-flow.ts).
 */
import type { Attempt } from '../core/attempt.js';
import type { Channel } from '../core/channel.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { ClientKey } from '../http/auth.js';
import { tryInOrder } from '../routing/failover.js';
import { logUnexpectedAttempt } from './upstream-call.js';
import type { TaskKind } from '../tasks/task-kind.js';
import type { JsonObject, SubmitOutcome, TaskRecord } from '../tasks/types.js';
import type { TaskRequestMeta } from './task-log.js';
import type { ModelPrice } from '../config/price-schema.js';
import { admitted } from './request-flow.js';
import type { TaskServices } from './services.js';

export type { TaskRequestMeta } from './task-log.js';

/** Where a task may go: a channel, and the upstream account on it when the kind has accounts. */
export interface TaskTarget {
  channel: Channel;
  account?: { id: string; json: JsonObject };
}

export interface TaskSubmission<Request extends object, Result extends object, Payload> {
  kind: TaskKind<Request, Result>;
  /** Names the kind in messages (`image`, `video`). */
  noun: string;
  action: string;
  /** What the key must be allowed and the request is logged under (a model, or a routing name such as `ig_imagine`). */
  model: string;
  /** The task's price, asked once the key is admitted; undefined when the model or action is priced nowhere (then it costs 0, logged as unpriced). */
  price(): number | undefined;
  /** The family's pricing rule at another price (the serving channel's cost table, for the upstream cost); undefined when it prices none of this work. */
  priceAt?(price: ModelPrice): number | undefined;
  /** The channels to try, in order, asked once the key is admitted (follow-ups: their parent's only). */
  targets(): TaskTarget[];
  /** The stored request, built once the key is admitted (it may keep media). */
  request(): Promise<Request> | Request;
  /** What the submission carries beyond the stored request (built after `request`). */
  payload(request: Request): Payload;
  parent?: TaskRecord;
  notifyHook?: string;
  /** The HTTP status logged on success. */
  status: number;
  /** The model name sent upstream, for the log; none when the kind routes by action. */
  upstreamModel?(channel: Channel): string;
}

export interface Submitted {
  task: TaskRecord;
  outcome: SubmitOutcome;
}

export async function submitTask<Request extends object, Result extends object, Payload>(
  services: TaskServices,
  key: ClientKey,
  submission: TaskSubmission<Request, Result, Payload>,
  meta: TaskRequestMeta,
): Promise<Submitted> {
  const { kind } = submission;
  const attempts: Attempt[] = [];
  let cost = 0;
  let unpriced = false;
  let channel: Channel | undefined;
  const logFields = () => ({ family: kind.family, model: submission.model, channel, upstreamModel: submission.upstreamModel, attempts });
  try {
    const admission = admitted(services, key, submission.model);
    if (admission) await admission;
    const price = submission.price();
    unpriced = price === undefined;
    cost = price ?? 0;
    const targets = submission.targets();
    const request = await submission.request();
    const first = targets[0];
    const budgetHold = cost > 0 ? await services.holdBudgets(key, cost) : undefined;
    const task = await services
      .createTask({
        family: kind.family,
        action: submission.action,
        keyId: key.record.id,
        teamId: key.record.teamId,
        userId: key.record.userId,
        channelId: first.channel.id,
        accountId: first.account?.id ?? null,
        account: first.account?.json ?? null,
        parentId: submission.parent?.id ?? null,
        request: kind.requestJson(request),
        notifyHook: submission.notifyHook ?? null,
        cost,
      })
      .catch((error: unknown) => {
        void budgetHold?.release(0, 0);
        throw error;
      });
    if (cost > 0) services.noteCharge(key, cost, budgetHold);
    const payload = submission.payload(request);
    const { value: outcome, item: target } = await tryInOrder(
      targets,
      (target) => target.channel,
      { maxAttempts: services.maxAttempts, health: services.health, attempts, label: `${submission.noun} task ${task.id}`, onUnexpected: logUnexpectedAttempt(services.logger, meta.requestId) },
      (target) => services.taskUpstream<Request, Result, Payload>(kind, submission.noun, target.channel).submit(task, payload, services.taskCall(target.channel, target.account?.id)),
    ).catch(async (error: unknown) => {
      // The client never learns this task's id, so no callback reports it.
      const failReason = `the upstream refused the task: ${toGatewayError(error).message}`;
      await services.changeTask(task, { status: 'FAILURE', failReason }, { notify: false });
      throw error;
    });
    channel = target.channel;
    const updated = await services.changeTask(task, acceptedChange(services.firstPollAt(), task, target, outcome));
    if (!updated) throw new GatewayError('internal', `task ${task.id} changed while it was being submitted`);
    // The charge was written with the task; the log row only reports it.
    services.logTask(key, meta, { ...logFields(), status: submission.status, cost, unpriced, upstreamCost: taskUpstreamCost(services, submission, target.channel) });
    return { task: updated, outcome };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    services.logTask(key, meta, { ...logFields(), status: error.status, cost: 0, error });
    throw error;
  }
}

/** What the serving channel's provider charges for the task, by its cost table; null without a price there. */
function taskUpstreamCost<Request extends object, Result extends object, Payload>(services: TaskServices, submission: TaskSubmission<Request, Result, Payload>, channel: Channel): number | null {
  if (!submission.priceAt) return null;
  const price = services.costsOf(channel.id)?.priceFor(submission.upstreamModel?.(channel), submission.model);
  return price ? (submission.priceAt(price) ?? null) : null;
}

/** What the upstream's acceptance changes on the task. */
function acceptedChange(firstPollAt: number, task: TaskRecord, target: TaskTarget, outcome: SubmitOutcome) {
  const status = outcome.status ?? 'SUBMITTED';
  const waiting = status === 'NOT_START' || status === 'MODAL';
  return {
    status,
    progress: outcome.progress ?? 0,
    channelId: target.channel.id,
    ...(target.account ? { accountId: target.account.id, account: target.account.json } : {}),
    upstreamId: outcome.upstreamId,
    upstreamData: outcome.upstreamData ?? null,
    // Queued work and a modal waiting for the client have not started.
    startTime: waiting ? null : (outcome.startTime ?? Date.now()),
    // A task waiting for its modal has nothing to poll until it times out.
    nextPollAt: status === 'MODAL' ? task.timeoutAt : firstPollAt,
  };
}
