/** Pure transition rules: forward only, backoff, projection for callback bodies. */
import { describe, expect, it } from 'vitest';
import { changeFromObservation, nextPollDelay, project } from '../../src/tasks/transitions.js';
import type { TaskRecord } from '../../src/tasks/types.js';

const base: TaskRecord = {
  id: '1',
  family: 'test',
  action: 'RUN',
  keyId: 'k',
  channelId: 'c',
  accountId: null,
  account: null,
  upstreamId: 'u',
  upstreamData: null,
  parentId: null,
  status: 'IN_PROGRESS',
  progress: 40,
  request: {},
  result: { kept: true },
  failReason: null,
  notifyHook: null,
  cost: 0,
  billing: 'none',
  version: 3,
  leaseOwner: 'me',
  leaseUntil: 1,
  nextPollAt: 1,
  pollCount: 2,
  submitTime: 0,
  startTime: 5,
  finishTime: null,
  timeoutAt: 1e12,
  createdAt: 0,
  updatedAt: 0,
};

describe('task transitions', () => {
  it('never moves status or progress backwards', () => {
    expect(changeFromObservation(base, { status: 'SUBMITTED', progress: 10 }, 100)).toBeUndefined();
    expect(changeFromObservation(base, { status: 'IN_PROGRESS', progress: 40 }, 100)).toBeUndefined();
    expect(changeFromObservation(base, { status: 'IN_PROGRESS', progress: 62 }, 100)).toEqual({ progress: 62 });
  });

  it('completes with 100% and merges the result', () => {
    expect(changeFromObservation(base, { status: 'SUCCESS', progress: 0, result: { image: 'x' } }, 100)).toEqual({
      status: 'SUCCESS',
      progress: 100,
      result: { kept: true, image: 'x' },
    });
  });

  it('gives a failure a reason and a start time when it never had one', () => {
    const fresh = { ...base, status: 'SUBMITTED' as const, startTime: null, progress: 0 };
    expect(changeFromObservation(fresh, { status: 'FAILURE', progress: 0 }, 77)).toEqual({
      status: 'FAILURE',
      startTime: 77,
      failReason: 'the upstream reported a failure',
    });
  });

  it('ignores news about a final task', () => {
    expect(changeFromObservation({ ...base, status: 'SUCCESS' }, { status: 'FAILURE', progress: 0 }, 1)).toBeUndefined();
  });

  it('backs off by half per poll without news, up to the ceiling, shortened by a hint', () => {
    const schedule = { firstPollMs: 1000, maxPollMs: 5000 };
    expect(nextPollDelay(0, schedule)).toBe(1000);
    expect(nextPollDelay(1, schedule)).toBe(1500);
    expect(nextPollDelay(2, schedule)).toBe(2250);
    expect(nextPollDelay(10, schedule)).toBe(5000);
    expect(nextPollDelay(10, schedule, 200)).toBe(200);
    expect(nextPollDelay(0, schedule, 9000)).toBe(1000);
  });

  it('projects a final change with its finish time and no next poll', () => {
    const next = project(base, { status: 'SUCCESS', progress: 100 }, 999);
    expect(next).toMatchObject({ status: 'SUCCESS', progress: 100, finishTime: 999, nextPollAt: null, version: 4 });
  });
});
