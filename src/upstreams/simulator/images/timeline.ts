/**
 * The simulator's clock: a task's state is a function of the time elapsed
 * since it started. NOT_START while queued, SUBMITTED for the first tenth of
 * `taskSeconds`, then IN_PROGRESS through the progress steps a real service
 * reports, then SUCCESS (or FAILURE). Nothing is kept in memory, so any
 * instance, before or after a restart, reads the same state.
 */
import type { Observation, TaskStatus } from '../../../tasks/types.js';

export const PROGRESS_STEPS = [15, 31, 46, 62, 78, 93];

export interface Schedule {
  /** Epoch ms when the task leaves the queue. */
  startAt: number;
  durationMs: number;
  /** Set when the task is to fail. */
  failReason?: string;
}

export interface ClockState {
  status: TaskStatus;
  progress: number;
  /** Time until the state next changes. */
  nextInMs?: number;
}

export function stateAt(schedule: Schedule, now: number): ClockState {
  const elapsed = now - schedule.startAt;
  const duration = schedule.durationMs;
  if (elapsed < 0) return { status: 'NOT_START', progress: 0, nextInMs: -elapsed };
  const submitted = duration * 0.1;
  if (elapsed < submitted) return { status: 'SUBMITTED', progress: 0, nextInMs: submitted - elapsed };
  if (elapsed < duration) {
    const stepLength = (duration - submitted) / PROGRESS_STEPS.length;
    const step = Math.min(PROGRESS_STEPS.length - 1, Math.floor((elapsed - submitted) / stepLength));
    const nextAt = submitted + (step + 1) * stepLength;
    return { status: 'IN_PROGRESS', progress: PROGRESS_STEPS[step], nextInMs: Math.max(1, nextAt - elapsed) };
  }
  return schedule.failReason ? { status: 'FAILURE', progress: 0 } : { status: 'SUCCESS', progress: 100 };
}

export function observe(schedule: Schedule, now: number): Observation {
  const state = stateAt(schedule, now);
  const observation: Observation = { status: state.status, progress: state.progress, startTime: schedule.startAt };
  if (state.nextInMs !== undefined) observation.nextPollInMs = state.nextInMs;
  if (state.status === 'FAILURE') observation.failReason = schedule.failReason;
  if (state.status === 'SUCCESS' || state.status === 'FAILURE') observation.finishTime = schedule.startAt + schedule.durationMs;
  return observation;
}
