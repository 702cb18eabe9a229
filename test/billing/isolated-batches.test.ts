/**
 * One bad row in a batch of request logs never costs the others, on SQLite
 * and PostgreSQL: text the engine cannot hold (NUL bytes, lone surrogates)
 * is made storable, a row the database still refuses (here: a duplicate id)
 * is split out and reported, and the rest of its batch is written.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageRecorder } from '../../src/billing/usage-recorder.js';
import { newId } from '../../src/storage/ids.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from '../storage/engines.js';

function logRow(keyId: string, overrides: Partial<RequestLogRow> = {}): RequestLogRow {
  return {
    id: newId('log'),
    requestId: newId('req'),
    keyId,
    family: 'messages',
    model: 'plain-model',
    upstreamModel: null,
    channelId: null,
    triedChannels: [],
    httpStatus: 200,
    errorKind: null,
    errorMessage: null,
    stream: false,
    inputTokens: 1,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cost: 0,
    upstreamCost: null,
    latencyMs: 1,
    firstByteMs: null,
    clientIp: '127.0.0.1',
    translation: null,
    attempts: [],
    createdAt: Date.now(),
    ...overrides,
  };
}

describe.each(engines)('batched request logs on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('a poisoned row loses nothing else of its batch', async () => {
    const existing = logRow('key_before');
    await store.logs.insertMany([existing]);

    const rejected: Array<{ row: RequestLogRow; error: unknown }> = [];
    const onError = vi.fn();
    const recorder = new UsageRecorder(store, {
      flushIntervalMs: 60_000,
      maxBatch: 10_000,
      onError,
      onRejectedRow: (row, error) => rejected.push({ row, error }),
    });
    const keyId = 'key_batch';
    const ordinary = Array.from({ length: 250 }, () => logRow(keyId));
    const nul = logRow(keyId, { model: 'm\u0000x', errorMessage: 'upstream said \u0000', translation: 'a\u0000' });
    const surrogate = logRow(keyId, { model: 'lone \uD800 surrogate' });
    // The same primary key as a stored row: refused by both engines whatever the text.
    const duplicate = logRow(keyId, { id: existing.id });
    const rows = [...ordinary.slice(0, 60), nul, ...ordinary.slice(60, 130), duplicate, ...ordinary.slice(130), surrogate];
    for (const row of rows) recorder.record(row);
    await recorder.close();

    expect(onError).not.toHaveBeenCalled();
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.row.id).toBe(existing.id);

    const stored = await store.logs.query({ keyId, limit: 1000 });
    expect(stored).toHaveLength(ordinary.length + 2);
    const ids = new Set(stored.map((row) => row.id));
    for (const row of ordinary) expect(ids.has(row.id)).toBe(true);
    const storedNul = stored.find((row) => row.id === nul.id)!;
    expect(storedNul.model).toBe('m\uFFFDx');
    expect(storedNul.errorMessage).toBe('upstream said \uFFFD');
    expect(stored.find((row) => row.id === surrogate.id)!.model).toBe('lone \uFFFD surrogate');
    // The stored row the duplicate collided with is untouched.
    expect((await store.logs.query({ keyId: 'key_before' }))[0]!.id).toBe(existing.id);
  });
});

describe('a database that cannot be reached', () => {
  it('is not split row by row: the batch is dropped with one error', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const insertMany = vi.fn(async () => {
      throw unreachable;
    });
    const store = { keys: { addUsed: vi.fn() }, logs: { insertMany } } as unknown as Store;
    const onError = vi.fn();
    const onRejectedRow = vi.fn();
    const recorder = new UsageRecorder(store, { flushIntervalMs: 60_000, maxBatch: 10_000, onError, onRejectedRow });
    for (let i = 0; i < 250; i++) recorder.record(logRow('k'));
    await recorder.close();
    expect(insertMany).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledOnce();
    expect(onRejectedRow).not.toHaveBeenCalled();
  });
});
