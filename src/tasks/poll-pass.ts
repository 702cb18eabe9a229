/**
 * One polling pass: claim due tasks under a lease, settle the ones past their
 * time (timeouts, interrupted submissions, abandoned modals), ask each
 * channel's upstream about the rest in batches, and apply what changed.
 * Tasks without news are handed back with a longer wait.
 */
import type { Logger } from 'pino';
import type { Channel } from '../core/channel.js';
import { GatewayError } from '../core/errors.js';
import type { MediaStore } from './media.js';
import type { OutboundGuard } from './outbound-guard.js';
import type { Reschedule, TaskRepository } from './repository.js';
import type { TaskChange } from './task-writes.js';
import { timeSlices, type Checkpoint } from './time-slices.js';
import { changeFromObservation, nextPollDelay, type PollSchedule } from './transitions.js';
import type { AnyTaskUpstream, MediaRef, Observation, TaskCall, TaskRecord } from './types.js';
import type { UpstreamLimits } from '../core/upstream-limits.js';

/** What a polling pass needs from the engine that runs it (and nothing more, so it can be driven alone). */
export interface PollHost {
  readonly instanceId: string;
  readonly options: PollSchedule & { leaseMs: number; batchSize: number; upstreamTimeoutMs: number; upstreamLimits?: UpstreamLimits };
  readonly tasks: Pick<TaskRepository, 'claimDue' | 'reschedule'>;
  readonly media: MediaStore;
  readonly guard: OutboundGuard;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  channelById(id: string): Channel | undefined;
  nextKey(channel: Channel): string;
  upstream(family: string, channelType: string): AnyTaskUpstream | undefined;
  change(task: TaskRecord, change: TaskChange): Promise<TaskRecord | undefined>;
  firstPollAt(now?: number, hintMs?: number): number;
}

export async function runPollPass(host: PollHost): Promise<number> {
  const { options } = host;
  const claimed = await host.tasks.claimDue(host.instanceId, options.leaseMs, options.batchSize);
  if (claimed.length === 0) return 0;
  const groups = new Map<string, TaskRecord[]>();
  const later: Reschedule[] = [];
  const now = Date.now();
  const checkpoint = timeSlices();
  for (const task of claimed) {
    await checkpoint();
    if (await settleOverdue(host, task, now)) continue;
    if (task.status === 'MODAL') {
      // Waiting for the client, not the upstream: nothing to ask until it times out.
      later.push({ id: task.id, nextPollAt: task.timeoutAt });
      continue;
    }
    const key = `${task.channelId}\u0000${task.family}`;
    const group = groups.get(key);
    if (group) group.push(task);
    else groups.set(key, [task]);
  }
  await host.tasks.reschedule(host.instanceId, later);
  await Promise.all([...groups.values()].map((tasks) => pollGroup(host, tasks, checkpoint)));
  return claimed.length;
}

/** Fails a task that can no longer finish normally. Returns whether it did. */
async function settleOverdue(host: PollHost, task: TaskRecord, now: number): Promise<boolean> {
  let reason: string | undefined;
  if (now >= task.timeoutAt) {
    const seconds = Math.round((task.timeoutAt - task.submitTime) / 1000);
    reason = task.status === 'MODAL' ? `the modal was not submitted within ${seconds} seconds` : `the task did not finish within ${seconds} seconds`;
  } else if (task.upstreamId === null && task.status !== 'MODAL') {
    reason = 'the gateway stopped before the upstream accepted the task';
  }
  if (reason === undefined) return false;
  await host.change(task, { status: 'FAILURE', failReason: reason });
  return true;
}

async function pollGroup(host: PollHost, tasks: TaskRecord[], checkpoint: Checkpoint): Promise<void> {
  const first = tasks[0];
  const channel = host.channelById(first.channelId);
  const upstream = channel && host.upstream(first.family, channel.type);
  if (!channel || !upstream) {
    const reason = channel ? `channel type "${channel.type}" cannot run ${first.family} tasks` : "the task's channel no longer exists";
    for (const task of tasks) {
      await checkpoint();
      await host.change(task, { status: 'FAILURE', failReason: reason });
    }
    return;
  }
  const batch = upstream.maxPollBatch ?? 100;
  for (let start = 0; start < tasks.length; start += batch) {
    const chunk = tasks.slice(start, start + batch);
    const call: TaskCall = {
      channel,
      apiKey: host.nextKey(channel),
      signal: host.signal,
      timeoutMs: host.options.upstreamTimeoutMs,
      limits: host.options.upstreamLimits,
      outbound: host.guard,
    };
    let observed: Map<string, Observation>;
    try {
      observed = await upstream.poll(chunk, call);
    } catch (error) {
      host.logger.warn({ err: error, channel: channel.name, tasks: chunk.length }, 'task poll failed');
      await host.tasks.reschedule(
        host.instanceId,
        chunk.map((task) => backoff(host, task)),
      );
      continue;
    }
    const unchanged: Reschedule[] = [];
    for (const task of chunk) {
      await checkpoint();
      const observation = observed.get(task.id);
      const applied = observation ? await apply(host, upstream, task, observation, call) : false;
      if (!applied) unchanged.push(backoff(host, task, observation?.nextPollInMs));
    }
    await host.tasks.reschedule(host.instanceId, unchanged);
  }
}

function backoff(host: PollHost, task: TaskRecord, hintMs?: number): Reschedule {
  const delay = nextPollDelay(task.pollCount + 1, host.options, hintMs);
  // Never past the timeout, so an overdue task is failed on time.
  return { id: task.id, nextPollAt: Math.min(Date.now() + delay, task.timeoutAt) };
}

/** Applies an observation. Returns false when it changed nothing (or could not be applied yet). */
async function apply(host: PollHost, upstream: AnyTaskUpstream, task: TaskRecord, observation: Observation, call: TaskCall): Promise<boolean> {
  const now = Date.now();
  const change = changeFromObservation(task, observation, now);
  if (!change) return false;
  let stored: MediaRef[] = [];
  if (change.status === 'SUCCESS' && upstream.fetchMedia) {
    try {
      stored = await storeMedia(host, upstream, task, observation, call);
    } catch (error) {
      if (error instanceof GatewayError && !error.retryable) {
        // Asking again cannot help (e.g. an address the gateway may not contact): fail it now.
        await host.change(task, { status: 'FAILURE', failReason: `the result could not be fetched: ${error.message}` });
        return true;
      }
      // The result is not kept yet: try again at the next poll (the timeout still bounds it).
      host.logger.warn({ err: error, taskId: task.id }, 'task media could not be stored');
      return false;
    }
    change.result = { ...(change.result ?? task.result ?? {}), media: stored };
  }
  const final = change.status === 'SUCCESS' || change.status === 'FAILURE' || change.status === 'CANCEL';
  const next: TaskChange = final ? change : { ...change, pollCount: 0, nextPollAt: Math.min(host.firstPollAt(now, observation.nextPollInMs), task.timeoutAt) };
  const updated = await host.change(task, next);
  if (!updated) for (const ref of stored) await host.media.remove(ref.key).catch(() => undefined);
  return true;
}

async function storeMedia(host: PollHost, upstream: AnyTaskUpstream, task: TaskRecord, observation: Observation, call: TaskCall): Promise<MediaRef[]> {
  const items = await upstream.fetchMedia!(task, observation, call);
  const refs: MediaRef[] = [];
  for (const item of items) refs.push(await host.media.put(item));
  return refs;
}
