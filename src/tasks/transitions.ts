/**
 * The pure part of task transitions: what an upstream observation changes in
 * a task (never going back: status and progress only move forward), and when
 * to look at a task again (backing off while nothing changes).
 */
import type { TaskChange } from './task-writes.js';
import { isFinal, type Observation, type TaskRecord, type TaskStatus } from './types.js';

export interface PollSchedule {
  /** Delay before the first poll of a new task, and after each change. */
  firstPollMs: number;
  /** Ceiling of the backoff. */
  maxPollMs: number;
}

const ORDER: Record<TaskStatus, number> = {
  NOT_START: 0,
  MODAL: 0,
  SUBMITTED: 1,
  IN_PROGRESS: 3,
  FAILURE: 5,
  SUCCESS: 5,
  CANCEL: 5,
};

const BACKOFF_FACTOR = 1.5;

/** The wait before the next poll: grows by half after every poll without news, capped; an upstream hint may shorten it. */
export function nextPollDelay(pollCount: number, schedule: PollSchedule, hintMs?: number): number {
  const backoff = Math.min(schedule.maxPollMs, schedule.firstPollMs * BACKOFF_FACTOR ** Math.min(pollCount, 40));
  if (hintMs === undefined || !Number.isFinite(hintMs)) return Math.round(backoff);
  return Math.round(Math.max(0, Math.min(backoff, hintMs)));
}

/** The change an observation makes, or undefined when it brings nothing new. */
export function changeFromObservation(task: TaskRecord, observed: Observation, now: number): TaskChange | undefined {
  if (isFinal(task.status)) return undefined;
  const status = ORDER[observed.status] >= ORDER[task.status] ? observed.status : task.status;
  const progress = status === 'SUCCESS' ? 100 : Math.max(task.progress, clampProgress(observed.progress));
  const change: TaskChange = {};
  if (status !== task.status) change.status = status;
  if (progress !== task.progress) change.progress = progress;
  if (task.startTime === null && status !== 'NOT_START' && status !== 'MODAL') {
    change.startTime = observed.startTime ?? now;
  }
  if (status === 'FAILURE' || status === 'CANCEL') change.failReason = observed.failReason || 'the upstream reported a failure';
  if (isFinal(status) && observed.finishTime !== undefined) change.finishTime = Math.min(observed.finishTime, now);
  if (observed.result && (change.status !== undefined || change.progress !== undefined)) {
    change.result = { ...(task.result ?? {}), ...observed.result };
  }
  return change.status === undefined && change.progress === undefined ? undefined : change;
}

function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(100, Math.round(value)));
}

/** A change worth a callback: the status moves (progress alone does not). */
export function changesStatus(task: TaskRecord, change: TaskChange): boolean {
  return change.status !== undefined && change.status !== task.status;
}

/** The record as it will be once `change` is applied (for rendering the callback body before the write). */
export function project(task: TaskRecord, change: TaskChange, now: number): TaskRecord {
  const next: TaskRecord = { ...task, updatedAt: now, version: task.version + 1 };
  for (const [field, value] of Object.entries(change)) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  if (isFinal(next.status) && !isFinal(task.status)) {
    next.finishTime = change.finishTime ?? now;
    next.nextPollAt = null;
  }
  return next;
}
