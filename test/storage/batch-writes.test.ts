/**
 * Multi-row writes compiled once per shape: a later batch of the same size
 * binds its own values (nothing of the first batch leaks into it), sizes
 * differ freely, batches of any size compile only a few shapes, and
 * time-ordered log ids sort as their times do.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BatchWrites } from '../../src/storage/batch-writes.js';
import { newTimeOrderedId } from '../../src/storage/ids.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import { engines, useTestStore } from './engines.js';

const now = Date.UTC(2026, 10, 26, 12);

function row(n: number, fields: Partial<RequestLogRow> = {}): RequestLogRow {
  const createdAt = now + n;
  return {
    id: newTimeOrderedId('log', createdAt),
    requestId: `req_${n}`,
    keyId: `key_${n % 2}`,
    family: 'messages',
    model: `model-${n}`,
    upstreamModel: null,
    channelId: 'ch_1',
    triedChannels: ['one'],
    httpStatus: 200,
    errorKind: null,
    errorMessage: null,
    stream: n % 2 === 0,
    inputTokens: n,
    outputTokens: 2 * n,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cost: n / 100,
    upstreamCost: null,
    latencyMs: 10 + n,
    firstByteMs: null,
    clientIp: '127.0.0.1',
    translation: null,
    attempts: [{ channel: 'one', channelId: 'ch_1', at: createdAt - 5, durationMs: 5, status: 200, errorKind: null, message: null }],
    createdAt,
    ...fields,
  };
}

describe('time-ordered ids', () => {
  it('sort as their milliseconds do, and are well formed', () => {
    const times = [0, 1, 61, 3_843, 1_700_000_000_000, 1_700_000_000_001, Date.UTC(2100, 0, 1)];
    const ids = times.map((time) => newTimeOrderedId('log', time));
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^log_[0-9A-Za-z]{20}$/);
    expect(newTimeOrderedId('log', 5)).not.toBe(newTimeOrderedId('log', 5));
  });
});

describe.each(engines)('batch writes on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);

  it.skipIf(skip)('binds each batch of a known shape to its own values', async () => {
    const store = opened.store;
    const first = [row(1), row(2), row(3)];
    const second = [row(4, { errorKind: 'upstream_error', errorMessage: 'no', httpStatus: 502 }), row(5, { keyId: null, channelId: null }), row(6, { firstByteMs: 7 })];
    await store.logs.insertMany(first);
    await store.logs.insertMany(second);
    await store.logs.insertMany([row(7)]);
    const page = await store.logs.query({ limit: 10 });
    expect(page.map((r) => r.requestId)).toEqual(['req_7', 'req_6', 'req_5', 'req_4', 'req_3', 'req_2', 'req_1']);
    const byRequest = new Map(page.map((r) => [r.requestId, r]));
    for (const written of [...first, ...second]) {
      const read = byRequest.get(written.requestId)!;
      expect(read.id).toBe(written.id);
      expect(read.model).toBe(written.model);
      expect(read.keyId).toBe(written.keyId);
      expect(read.channelId).toBe(written.channelId);
      expect(read.httpStatus).toBe(written.httpStatus);
      expect(read.errorMessage).toBe(written.errorMessage);
      expect(read.firstByteMs).toBe(written.firstByteMs);
      expect(read.cost).toBeCloseTo(written.cost);
      expect(read.attempts).toEqual(written.attempts);
    }
  });
});

describe('batch shapes', () => {
  it('writes a batch of any size as runs of a few fixed sizes, every row once and in order', async () => {
    const executed: CompiledQuery[] = [];
    const db = { executeQuery: async (query: CompiledQuery) => void executed.push(query) } as unknown as Kysely<any>;
    // A stand-in for Kysely's INSERT: one placeholder group per row, two parameters each.
    const build = (rows: { a: number; b: string }[]) => ({
      compile: () => ({ sql: `insert ${rows.map(() => '(?, ?)').join(', ')}`, parameters: rows.flatMap((row) => [row.a, row.b]), query: {} }) as unknown as CompiledQuery,
    });
    const writes = new BatchWrites();
    for (let size = 1; size <= 300; size++) {
      executed.length = 0;
      const rows = Array.from({ length: size }, (_, i) => ({ a: i, b: `r${i}` }));
      await writes.execute(db, 'demo', rows, build);
      expect(executed.flatMap((query) => query.parameters)).toEqual(rows.flatMap((row) => [row.a, row.b]));
      expect(executed.length).toBeLessThanOrEqual(Math.floor(size / 128) + 7);
    }
    const shapes = new Set<string>();
    for (let size = 1; size <= 300; size++) {
      executed.length = 0;
      await writes.execute(
        db,
        'demo',
        Array.from({ length: size }, (_, i) => ({ a: i, b: 'x' })),
        build,
      );
      for (const query of executed) shapes.add(query.sql);
    }
    expect(shapes.size).toBe(8);
  });
});
