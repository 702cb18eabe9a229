import { describe, expect, it } from 'vitest';
import { BatchPace, DEFAULT_PACE, lineRoom, nextLimit } from '../../src/tasks/batches/pace.js';
import { RequestArrivals } from '../../src/core/arrivals.js';

const idle = { interactive: false, loopDelayMs: 1, concurrency: 4, quietForMs: Number.POSITIVE_INFINITY };

describe('nextLimit (AIMD)', () => {
  it('grows by one a window while the instance is idle, up to the concurrency', () => {
    expect(nextLimit({ ...idle, limit: 0 })).toBe(1);
    expect(nextLimit({ ...idle, limit: 3 })).toBe(4);
    expect(nextLimit({ ...idle, limit: 4 })).toBe(4);
    expect(nextLimit({ ...idle, limit: 9 })).toBe(4);
  });

  it('drops to 0 while interactive work is seen, and stays there for the quiet time after it', () => {
    expect(nextLimit({ ...idle, limit: 4, interactive: true })).toBe(0);
    expect(nextLimit({ ...idle, limit: 0, quietForMs: DEFAULT_PACE.quietMs - 1 })).toBe(0);
    expect(nextLimit({ ...idle, limit: 0, quietForMs: DEFAULT_PACE.quietMs })).toBe(1);
  });

  it('halves under event-loop lag with no interactive work', () => {
    expect(nextLimit({ ...idle, limit: 4, loopDelayMs: DEFAULT_PACE.lagMs + 1 })).toBe(2);
    expect(nextLimit({ ...idle, limit: 1, loopDelayMs: DEFAULT_PACE.lagMs + 1 })).toBe(0);
    expect(nextLimit({ ...idle, limit: 4, loopDelayMs: DEFAULT_PACE.lagMs })).toBe(4);
  });

  it('is 0 for a concurrency of 0 and follows the tuning it is given', () => {
    expect(nextLimit({ ...idle, limit: 4, concurrency: 0 })).toBe(0);
    const tuning = { ...DEFAULT_PACE, lagMs: 5, quietMs: 0 };
    expect(nextLimit({ ...idle, limit: 4, loopDelayMs: 6, quietForMs: 0 }, tuning)).toBe(2);
  });
});

describe('lineRoom', () => {
  const room = { limit: 4, concurrency: 4, running: 0, sinceStartMs: 0 };

  it('is what the limit leaves', () => {
    expect(lineRoom(room)).toBe(4);
    expect(lineRoom({ ...room, running: 3 })).toBe(1);
    expect(lineRoom({ ...room, running: 5 })).toBe(0);
    expect(lineRoom({ ...room, limit: 8 })).toBe(4);
  });

  it('at a limit of 0 lets one line start per floor interval, below the concurrency', () => {
    expect(lineRoom({ ...room, limit: 0, sinceStartMs: DEFAULT_PACE.floorMs - 1 })).toBe(0);
    expect(lineRoom({ ...room, limit: 0, sinceStartMs: DEFAULT_PACE.floorMs })).toBe(1);
    expect(lineRoom({ ...room, limit: 0, running: 3, sinceStartMs: Number.POSITIVE_INFINITY })).toBe(1);
    expect(lineRoom({ ...room, limit: 0, running: 4, sinceStartMs: Number.POSITIVE_INFINITY })).toBe(0);
    expect(lineRoom({ ...room, limit: 0, concurrency: 0, sinceStartMs: Number.POSITIVE_INFINITY })).toBe(0);
  });
});

describe('BatchPace', () => {
  it('yields to interactive work, keeps the floor meanwhile, and grows back once quiet', () => {
    const pace = new BatchPace(4);
    expect(pace.room(0, 0)).toBe(1);
    pace.sample({ interactive: true, loopDelayMs: 1 }, 100);
    expect(pace.current).toBe(0);
    pace.started(1, 100);
    expect(pace.room(1, 200)).toBe(0);
    expect(pace.room(1, 350)).toBe(1);
    // Under interactive work, the floor coming due wakes the runner.
    expect(pace.sample({ interactive: true, loopDelayMs: 1 }, 300)).toBe(false);
    expect(pace.sample({ interactive: true, loopDelayMs: 1 }, 400)).toBe(true);
    pace.started(1, 400);
    const limits = [500, 600, 700, 800, 900, 1000].map((now) => {
      pace.sample({ interactive: false, loopDelayMs: 1 }, now);
      return pace.current;
    });
    expect(limits).toEqual([0, 0, 1, 2, 3, 4]);
  });

  it('says when lines may start that could not before', () => {
    const pace = new BatchPace(2);
    expect(pace.sample({ interactive: false, loopDelayMs: 1 }, 0)).toBe(true);
    expect(pace.sample({ interactive: false, loopDelayMs: 1 }, 100)).toBe(false);
  });
});

describe('RequestArrivals', () => {
  it('counts the model calls (POSTs under /v1), not reads, health checks or admin writes', () => {
    const arrivals = new RequestArrivals();
    arrivals.note('POST', '/v1/chat/completions');
    arrivals.note('POST', '/v1beta/models/gemini:generateContent');
    arrivals.note('GET', '/v1/batches/batch_1');
    arrivals.note('GET', '/healthz');
    arrivals.note('POST', '/admin/keys');
    expect(arrivals.count).toBe(2);
  });
});
