/**
 * The image side of the built-in `simulator` upstream: runs image tasks
 * in-process on the engine's clock and paints real PNGs. A channel of type
 * `simulator` serves both chat and image tasks. Settings and behaviour are
 * described in README.md next to this file.
 */
import { GatewayError } from '../../../core/errors.js';
import { IMAGE_TASKS, type ImageModalPayload, type ImageSubmitPayload, type ImageTaskRequest, type ImageTaskUpstream } from '../../../tasks/image-contract.js';
import type { MediaItem, Observation, SubmitOutcome, TaskCall, TaskRecord } from '../../../tasks/types.js';
import { paint } from './painter.js';
import { planJob } from './plan.js';
import { resultFor } from './results.js';
import { failsAction, readImageSimulatorSettings } from './settings.js';
import { observe, type Schedule } from './timeline.js';

const requestOf = (task: TaskRecord): ImageTaskRequest => IMAGE_TASKS.request(task);

function scheduleOf(task: TaskRecord): Schedule | undefined {
  const data = task.upstreamData as { schedule?: Schedule } | null;
  return data?.schedule;
}

/** Starts the task's clock now, behind whatever the account is already running. */
async function start(task: TaskRecord, call: TaskCall): Promise<SubmitOutcome> {
  const settings = readImageSimulatorSettings(call.channel);
  const durationMs = Math.round(settings.taskSeconds * 1000);
  let ahead = 0;
  let waitMs = 0;
  if (settings.concurrency !== undefined && call.countOpen) {
    const open = await call.countOpen();
    ahead = Math.max(0, open - settings.concurrency);
    // Each full round of `concurrency` tasks ahead delays the start by one task duration.
    waitMs = Math.ceil(ahead / settings.concurrency) * durationMs;
  }
  const now = Date.now();
  const schedule: Schedule = { startAt: now + waitMs, durationMs };
  if (failsAction(settings, task.action)) schedule.failReason = `simulated failure of ${task.action} (channel setting failTasks)`;
  return {
    upstreamId: `sim-${task.id}`,
    status: ahead > 0 ? 'NOT_START' : 'SUBMITTED',
    queuePosition: ahead,
    upstreamData: { schedule },
    startTime: ahead > 0 ? null : now,
  };
}

async function submit(task: TaskRecord, _payload: ImageSubmitPayload, call: TaskCall): Promise<SubmitOutcome> {
  call.signal.throwIfAborted();
  if (requestOf(task).modal) return { upstreamId: `sim-${task.id}`, status: 'MODAL', upstreamData: null };
  return start(task, call);
}

async function confirmModal(task: TaskRecord, _payload: ImageModalPayload, call: TaskCall): Promise<SubmitOutcome> {
  return start(task, call);
}

async function poll(tasks: TaskRecord[]): Promise<Map<string, Observation>> {
  const now = Date.now();
  const out = new Map<string, Observation>();
  for (const task of tasks) {
    const schedule = scheduleOf(task);
    if (!schedule) {
      out.set(task.id, { status: 'MODAL', progress: 0 });
      continue;
    }
    const observation = observe(schedule, now);
    if (observation.status === 'SUCCESS') {
      const request = requestOf(task);
      observation.result = { ...resultFor(task.id, task.action, request, planJob(task.action, request)) };
    }
    out.set(task.id, observation);
  }
  return out;
}

async function fetchMedia(task: TaskRecord, _observation: Observation, call: TaskCall): Promise<MediaItem[]> {
  const job = planJob(task.action, requestOf(task));
  if (!job.paint) return [];
  return [paint(job.paint, readImageSimulatorSettings(call.channel).imageSize)];
}

async function imageSeed(task: TaskRecord): Promise<string> {
  const seed = (task.result as { seed?: string } | null)?.seed;
  if (!seed) throw new GatewayError('invalid_request', `task ${task.id} has no image seed`);
  return seed;
}

export const imageSimulator: ImageTaskUpstream = {
  kind: IMAGE_TASKS,
  type: 'simulator',
  maxPollBatch: 500,
  submit,
  confirmModal,
  poll,
  fetchMedia,
  imageSeed,
};
