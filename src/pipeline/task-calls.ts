/**
 * What a request handler of an asynchronous family needs of the gateway to
 * call a task upstream (a submission, a follow-up, a read that asks the
 * upstream): the upstream of a channel's type, the call it gets, and how long
 * the submitting instance holds a new task.
 */
import { GatewayError } from '../core/errors.js';
import type { Channel } from '../core/channel.js';
import { upstreamLimits } from '../core/upstream-limits.js';
import type { AppContext } from '../http/context.js';
import type { TaskKind } from '../tasks/task-kind.js';
import type { TaskCall, TaskUpstream } from '../tasks/types.js';

/** The upstream that runs a kind on a channel's type; a type that cannot is the caller's mistake (403). */
export function taskUpstreamFor<Request extends object, Result extends object, Payload>(
  ctx: AppContext,
  kind: TaskKind<Request, Result>,
  noun: string,
  channel: Channel,
): TaskUpstream<Request, Result, Payload> {
  const upstream = ctx.tasks.upstream(kind.family, channel.type);
  if (!upstream) throw new GatewayError('permission', `channel ${channel.name} (type ${channel.type}) cannot run ${noun} tasks`);
  return upstream;
}

/** How a request handler calls a task upstream: one credential, a deadline, the outbound guard. */
export function taskCall(ctx: AppContext, channel: Channel, accountId?: string | null): TaskCall {
  return {
    channel,
    apiKey: ctx.health.nextKey(channel),
    signal: AbortSignal.timeout(ctx.settings.upstreamTimeoutMs + 1_000),
    timeoutMs: ctx.settings.upstreamTimeoutMs,
    limits: upstreamLimits(ctx.settings),
    countOpen: () => ctx.tasks.tasks.countOpen(channel.id, accountId ?? undefined),
    // Every upstream that names media addresses is held to the same allow list, whatever the kind.
    outbound: ctx.tasks.guard,
  };
}

/**
 * How long the submitting instance holds a new task: past every attempt it may
 * make, so no other instance mistakes a slow submission for an interrupted one.
 */
export function submissionLeaseMs(ctx: AppContext): number {
  return Math.max(ctx.tasks.options.leaseMs, (ctx.settings.upstreamTimeoutMs + 1_000) * ctx.settings.maxAttempts + 5_000);
}
