/**
 * Request-log retention on both engines: rows past the age go, the newest
 * rows within the cap stay, and a backlog is deleted in batches.
 */
import { describe, expect, it } from 'vitest';
import { pruneLogs } from '../../src/billing/log-retention.js';
import { requestLogRow } from '../../src/billing/log-row.js';
import { engines, useTestStore } from '../storage/engines.js';

const DAY = 86_400_000;

function rowAt(createdAt: number, n: number) {
  return requestLogRow(
    {
      requestId: `req_${n}`,
      keyId: null,
      family: 'messages',
      model: 'm',
      upstreamModel: null,
      channelId: null,
      httpStatus: 200,
      errorKind: null,
      errorMessage: null,
      stream: false,
      cost: 0,
      clientIp: '127.0.0.1',
      startedAt: createdAt,
    },
    createdAt,
  );
}

describe.each(engines)('request-log retention on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);

  it.skipIf(skip)('deletes rows past the age, then beyond the row cap, oldest first, in batches', async () => {
    const { store } = opened;
    const now = Date.now();
    // 30 rows ten days old, 20 rows of today, one a minute.
    const rows = [...Array.from({ length: 30 }, (_, i) => rowAt(now - 10 * DAY + i * 60_000, i)), ...Array.from({ length: 20 }, (_, i) => rowAt(now - 30 * 60_000 + i * 60_000, 100 + i))];
    await store.logs.insertMany(rows);
    expect(await pruneLogs(store, { retentionDays: 0, maxRows: 0 })).toBe(0);

    expect(await pruneLogs(store, { retentionDays: 7, maxRows: 0, batch: 8 })).toBe(30);
    let left = await store.logs.query({ limit: 1000 });
    expect(left).toHaveLength(20);
    expect(left.every((row) => row.createdAt > now - DAY)).toBe(true);

    expect(await pruneLogs(store, { retentionDays: 0, maxRows: 5, batch: 4 })).toBe(15);
    left = await store.logs.query({ limit: 1000 });
    expect(left.map((row) => row.requestId).sort()).toEqual(['req_115', 'req_116', 'req_117', 'req_118', 'req_119']);
  });
});
