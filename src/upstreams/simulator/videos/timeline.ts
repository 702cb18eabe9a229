/**
 * The video simulator's clock: a task's state is a function of the time since
 * it was submitted, kept in the task row, so any instance (or a restarted one)
 * reads the same state. SUBMITTED for the first tenth of `taskSeconds`, then
 * IN_PROGRESS with progress rising in tenths, then SUCCESS or FAILURE.
 */
import type { Observation } from '../../../tasks/types.js';

export interface VideoSchedule {
  startAt: number;
  durationMs: number;
  failReason?: string;
}

const STEPS = 9;

export function observeVideo(schedule: VideoSchedule, now: number): Observation {
  const elapsed = now - schedule.startAt;
  const { durationMs } = schedule;
  const submitted = durationMs * 0.1;
  const base: Observation = { status: 'SUBMITTED', progress: 0, startTime: schedule.startAt };
  if (elapsed < submitted) return { ...base, nextPollInMs: submitted - elapsed };
  if (elapsed < durationMs) {
    const stepLength = (durationMs - submitted) / STEPS;
    const step = Math.min(STEPS - 1, Math.floor((elapsed - submitted) / stepLength));
    const nextAt = submitted + (step + 1) * stepLength;
    return { ...base, status: 'IN_PROGRESS', progress: 10 * (step + 1), nextPollInMs: Math.max(1, nextAt - elapsed) };
  }
  const finishTime = schedule.startAt + durationMs;
  if (schedule.failReason) {
    return { ...base, status: 'FAILURE', progress: 90, failReason: schedule.failReason, finishTime, result: { errorCode: 'simulated_failure' } };
  }
  return { ...base, status: 'SUCCESS', progress: 100, finishTime };
}
