/**
 * Request-log retention on both engines: rows past the age go, the newest
 * rows within the cap stay, and a backlog is deleted in batches. The audit
 * log's entries go by their own age, in the same periodic pass.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pruneAudit, pruneLogs, startLogRetention } from '../../src/billing/log-retention.js';
import type { AuditActor } from '../../src/storage/audit-types.js';
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

const actor: AuditActor = { kind: 'cli', id: 'retention', name: 'retention', requestId: null, clientIp: null };

describe.each(engines)('audit-log retention on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  afterEach(() => {
    vi.useRealTimers();
  });

  it.skipIf(skip)('deletes entries older than their own retention, in batches, and the periodic pass does too', async () => {
    const { store } = opened;
    const now = Date.now();
    const secret = { id: 'admin_key_hash', facts: {} };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now - 400 * DAY);
    for (let i = 0; i < 3; i++) await store.audit.record(actor, 'admin-key.rotate', 'admin-key', null, secret);
    vi.setSystemTime(now - 30 * DAY);
    await store.audit.record(actor, 'admin-key.rotate', 'admin-key', null, secret);
    vi.useRealTimers();
    await store.audit.record(actor, 'admin-key.rotate', 'admin-key', null, secret);

    expect(await pruneAudit(store, { retentionDays: 0 })).toBe(0);
    expect(await pruneAudit(store, { retentionDays: 365, batch: 2 })).toBe(3);
    expect(await store.audit.query({ actorId: 'retention' })).toHaveLength(2);

    // Request-log limits off, audit retention on: the pass still runs, and takes the month-old entry.
    const stop = startLogRetention(store, { retentionDays: 0, maxRows: 0, auditRetentionDays: 7, intervalMs: 10, onError: (error) => expect.fail(String(error)) });
    try {
      await vi.waitFor(async () => expect(await store.audit.query({ actorId: 'retention' })).toHaveLength(1), { timeout: 2000, interval: 20 });
    } finally {
      stop();
    }
  });
});
