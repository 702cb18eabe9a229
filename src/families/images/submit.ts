/**
 * What an image submission is to the shared task flow (`submitTask`): the
 * routing name `ig_<action>` a key must be allowed (and is priced and logged
 * under), the channels and accounts to try (a follow-up goes where its parent
 * went: no routing, no failover), and the family's answer envelope with the
 * queue position when the upstream queued the task.
 */
import type { Attempt } from '../../core/attempt.js';
import type { Channel } from '../../core/channel.js';
import type { ClientKey } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { submitTask, type TaskRequestMeta, type TaskTarget } from '../../pipeline/submit-task.js';
import { taskUpstreamFor } from '../../pipeline/task-calls.js';
import { taskServices } from '../../pipeline/chat-services.js';
import { admitted } from '../../pipeline/request-flow.js';
import { logTaskRequest, type TaskLogFields } from '../../pipeline/task-log.js';
import { IMAGE_FAMILY, IMAGE_TASKS, routingName, type ImageAction, type ImageSubmitPayload, type ImageTaskRequest, type ImageTaskUpstream } from '../../tasks/image-contract.js';
import type { TaskRecord } from '../../tasks/types.js';
import { CODE, type Envelope } from './errors.js';
import type { AccountFilter } from './schema.js';
import { chooseTargets, type Target } from './targets.js';

export { submissionLeaseMs, taskCall } from '../../pipeline/task-calls.js';

export type ImageRequestMeta = TaskRequestMeta;

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

/** The action's price per call; undefined when it has none anywhere (the call is then logged as unpriced). */
export function perCallPrice(ctx: AppContext, routeName: string): number | undefined {
  return ctx.prices.priceOf(routeName)?.perCall;
}

export function imageUpstream(ctx: AppContext, channel: Channel): ImageTaskUpstream {
  return taskUpstreamFor(ctx, IMAGE_TASKS, 'image', channel) as ImageTaskUpstream;
}

/** Checks the key may use the action and has not hit its limits. Returns the price (undefined: priced nowhere). */
export async function admit(ctx: AppContext, key: ClientKey, routeName: string): Promise<number | undefined> {
  const admission = admitted(taskServices(ctx), key, routeName);
  if (admission) await admission;
  return perCallPrice(ctx, routeName);
}

const asTaskTarget = (target: Target): TaskTarget => ({
  channel: target.channel,
  account: { id: target.account.instanceId, json: { ...target.account } },
});

export async function submitImageTask(ctx: AppContext, key: ClientKey, plan: SubmitPlan, meta: ImageRequestMeta): Promise<Envelope> {
  const routeName = routingName(plan.action);
  const { task, outcome } = await submitTask(
    taskServices(ctx),
    key,
    {
      kind: IMAGE_TASKS,
      noun: 'image',
      action: plan.action,
      model: routeName,
      price: () => perCallPrice(ctx, routeName),
      priceAt: (price) => price.perCall,
      targets: () => (plan.target ? [plan.target] : chooseTargets(ctx, routeName, plan.accountFilter)).map(asTaskTarget),
      request: () => plan.request,
      payload: () => plan.payload,
      parent: plan.parent,
      notifyHook: plan.notifyHook,
      status: 200,
    },
    meta,
  );
  const ahead = outcome.queuePosition ?? 0;
  if (task.status === 'NOT_START' && ahead > 0) {
    return { code: CODE.queued, description: `In queue, there are ${ahead} tasks ahead`, properties: { numberOfQueues: ahead }, result: task.id };
  }
  return { code: CODE.submitted, description: 'Submit success', properties: {}, result: task.id };
}

interface LogFields {
  routeName: string;
  channel?: Channel;
  attempts: Attempt[];
  status: number;
  cost: number;
  unpriced?: boolean;
  error?: TaskLogFields['error'];
  /** Write the cost as spend too (work without a task; task charges are written with the task). */
  spend?: boolean;
}

/** Logs an image request that is not a submission (a modal, an upload) under its routing name. */
export function log(ctx: AppContext, key: ClientKey, meta: ImageRequestMeta, fields: LogFields): void {
  logTaskRequest(ctx, key, meta, {
    family: IMAGE_FAMILY,
    model: fields.routeName,
    channel: fields.channel,
    attempts: fields.attempts,
    status: fields.status,
    cost: fields.cost,
    unpriced: fields.unpriced,
    error: fields.error,
    spend: fields.spend,
  });
}
