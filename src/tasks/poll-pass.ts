/**
 * One polling pass: claim due tasks under a lease, settle the ones past their
 * time (timeouts, interrupted submissions, abandoned modals), ask each
 * channel's upstream about the rest in batches, and apply what changed.
 * Tasks without news are handed back with a longer wait.
 */
import { GatewayError } from '../core/errors.js';
import type { TaskEngine } from './engine.js';
import type { Reschedule, TaskChange } from './repository.js';
import { changeFromObservation, nextPollDelay } from './transitions.js';
import type { MediaRef, Observation, TaskCall, TaskRecord, TaskUpstream } from './types.js';

export async function runPollPass(engine: TaskEngine): Promise<number> {
  const { options } = engine;
  const claimed = await engine.tasks.claimDue(engine.instanceId, options.leaseMs, options.batchSize);
  if (claimed.length === 0) return 0;
  const groups = new Map<string, TaskRecord[]>();
  const later: Reschedule[] = [];
  const now = Date.now();
  for (const task of claimed) {
    if (await settleOverdue(engine, task, now)) continue;
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
  await engine.tasks.reschedule(engine.instanceId, later);
  await Promise.all([...groups.values()].map((tasks) => pollGroup(engine, tasks)));
  return claimed.length;
}

/** Fails a task that can no longer finish normally. Returns whether it did. */
async function settleOverdue(engine: TaskEngine, task: TaskRecord, now: number): Promise<boolean> {
  let reason: string | undefined;
  if (now >= task.timeoutAt) {
    const seconds = Math.round((task.timeoutAt - task.submitTime) / 1000);
    reason =
      task.status === 'MODAL'
        ? `the modal was not submitted within ${seconds} seconds`
        : `the task did not finish within ${seconds} seconds`;
  } else if (task.upstreamId === null && task.status !== 'MODAL') {
    reason = 'the gateway stopped before the upstream accepted the task';
  }
  if (reason === undefined) return false;
  await engine.change(task, { status: 'FAILURE', failReason: reason });
  return true;
}

async function pollGroup(engine: TaskEngine, tasks: TaskRecord[]): Promise<void> {
  const first = tasks[0];
  const channel = engine.deps.channel(first.channelId);
  const upstream = channel && engine.upstream(first.family, channel.type);
  if (!channel || !upstream) {
    const reason = channel ? `channel type "${channel.type}" cannot run ${first.family} tasks` : 'the task\'s channel no longer exists';
    for (const task of tasks) await engine.change(task, { status: 'FAILURE', failReason: reason });
    return;
  }
  const batch = upstream.maxPollBatch ?? 100;
  for (let start = 0; start < tasks.length; start += batch) {
    const chunk = tasks.slice(start, start + batch);
    const call: TaskCall = {
      channel,
      apiKey: engine.deps.nextKey(channel),
      signal: engine.signal,
      timeoutMs: engine.options.upstreamTimeoutMs,
      limits: engine.options.upstreamLimits,
      outbound: engine.guard,
    };
    let observed: Map<string, Observation>;
    try {
      observed = await upstream.poll(chunk, call);
    } catch (error) {
      engine.logger.warn({ err: error, channel: channel.name, tasks: chunk.length }, 'task poll failed');
      await engine.tasks.reschedule(engine.instanceId, chunk.map((task) => backoff(engine, task)));
      continue;
    }
    const unchanged: Reschedule[] = [];
    for (const task of chunk) {
      const observation = observed.get(task.id);
      const applied = observation ? await apply(engine, upstream, task, observation, call) : false;
      if (!applied) unchanged.push(backoff(engine, task, observation?.nextPollInMs));
    }
    await engine.tasks.reschedule(engine.instanceId, unchanged);
  }
}

function backoff(engine: TaskEngine, task: TaskRecord, hintMs?: number): Reschedule {
  const delay = nextPollDelay(task.pollCount + 1, engine.options, hintMs);
  // Never past the timeout, so an overdue task is failed on time.
  return { id: task.id, nextPollAt: Math.min(Date.now() + delay, task.timeoutAt) };
}

/** Applies an observation. Returns false when it changed nothing (or could not be applied yet). */
async function apply(
  engine: TaskEngine,
  upstream: TaskUpstream,
  task: TaskRecord,
  observation: Observation,
  call: TaskCall,
): Promise<boolean> {
  const now = Date.now();
  const change = changeFromObservation(task, observation, now);
  if (!change) return false;
  let stored: MediaRef[] = [];
  if (change.status === 'SUCCESS' && upstream.fetchMedia) {
    try {
      stored = await storeMedia(engine, upstream, task, observation, call);
    } catch (error) {
      if (error instanceof GatewayError && !error.retryable) {
        // Asking again cannot help (e.g. an address the gateway may not contact): fail it now.
        await engine.change(task, { status: 'FAILURE', failReason: `the result could not be fetched: ${error.message}` });
        return true;
      }
      // The result is not kept yet: try again at the next poll (the timeout still bounds it).
      engine.logger.warn({ err: error, taskId: task.id }, 'task media could not be stored');
      return false;
    }
    change.result = { ...(change.result ?? task.result ?? {}), media: stored };
  }
  const final = change.status === 'SUCCESS' || change.status === 'FAILURE' || change.status === 'CANCEL';
  const next: TaskChange = final
    ? change
    : { ...change, pollCount: 0, nextPollAt: Math.min(engine.firstPollAt(now, observation.nextPollInMs), task.timeoutAt) };
  const updated = await engine.change(task, next);
  if (!updated) for (const ref of stored) await engine.media.remove(ref.key).catch(() => undefined);
  return true;
}

async function storeMedia(
  engine: TaskEngine,
  upstream: TaskUpstream,
  task: TaskRecord,
  observation: Observation,
  call: TaskCall,
): Promise<MediaRef[]> {
  const items = await upstream.fetchMedia!(task, observation, call);
  const refs: MediaRef[] = [];
  for (const item of items) refs.push(await engine.media.put(item));
  return refs;
}
