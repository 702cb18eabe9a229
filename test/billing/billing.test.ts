import { describe, expect, it, vi } from 'vitest';
import { PriceTable } from '../../src/billing/prices.js';
import { UsageRecorder } from '../../src/billing/usage-recorder.js';
import type { RequestLogRow } from '../../src/storage/request-log-types.js';
import type { Store } from '../../src/storage/types.js';

const usage = { inputTokens: 1_000_000, outputTokens: 500_000, cacheReadTokens: 200_000, cacheWriteTokens: 100_000 };

describe('prices', () => {
  it('prefers the exact model, then the longest prefix, then *', () => {
    const table = new PriceTable({ '*': { input: 1 }, 'claude-*': { input: 2 }, 'claude-opus-*': { input: 3 }, 'claude-x': { input: 4 } });
    expect(table.priceOf('claude-x')?.input).toBe(4);
    expect(table.priceOf('claude-opus-5')?.input).toBe(3);
    expect(table.priceOf('claude-haiku')?.input).toBe(2);
    expect(table.priceOf('gpt')?.input).toBe(1);
    expect(new PriceTable().cost('gpt', usage)).toBe(0);
  });

  it('charges cache tokens at their prices, or the input price', () => {
    expect(new PriceTable({ m: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }).cost('m', usage)).toBeCloseTo(3 + 7.5 + 0.06 + 0.375);
    expect(new PriceTable({ m: { input: 3, output: 15 } }).cost('m', usage)).toBeCloseTo(3 + 7.5 + 0.6 + 0.3);
  });
});

describe('usage recorder', () => {
  function fakeStore(failKeys: boolean, failLogs: boolean) {
    const addUsed = vi.fn(async () => {
      if (failKeys) throw new Error('keys down');
    });
    const insertMany = vi.fn(async (_rows: RequestLogRow[]) => {
      if (failLogs) throw new Error('logs down');
    });
    return { store: { keys: { addUsed }, logs: { insertMany } } as unknown as Store, addUsed, insertMany };
  }
  const row = { id: 'log_1' } as RequestLogRow;

  it('writes spend and logs in one batch each', async () => {
    const { store, addUsed, insertMany } = fakeStore(false, false);
    const recorder = new UsageRecorder(store, { flushIntervalMs: 60_000, maxBatch: 100, onError: () => undefined });
    recorder.record(row, { keyId: 'k', amount: 1 });
    recorder.record(row, { keyId: 'k', amount: 2 });
    expect(recorder.pending('k')).toBe(3);
    await recorder.close();
    expect(addUsed).toHaveBeenCalledOnce();
    expect(addUsed.mock.calls[0]).toEqual([new Map([['k', 3]])]);
    expect(insertMany.mock.calls[0][0]).toHaveLength(2);
    expect(recorder.pending('k')).toBe(0);
  });

  it('writes a batch when it is full, or when its first row has waited maxRowWaitMs', async () => {
    vi.useFakeTimers();
    try {
      const { store, insertMany } = fakeStore(false, false);
      const recorder = new UsageRecorder(store, { flushIntervalMs: 60_000, maxBatch: 3, maxRowWaitMs: 20, onError: () => undefined });
      recorder.record(row);
      await vi.advanceTimersByTimeAsync(15);
      recorder.record(row);
      recorder.record(row);
      await vi.advanceTimersByTimeAsync(0);
      expect(insertMany.mock.calls.map(([rows]) => rows.length)).toEqual([3]);
      // A trickle goes out once its first row has waited 20 ms (not when the full batch's first row would have).
      recorder.record(row);
      await vi.advanceTimersByTimeAsync(5);
      expect(insertMany).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(5);
      recorder.record(row);
      await vi.advanceTimersByTimeAsync(9);
      expect(insertMany).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(insertMany.mock.calls.map(([rows]) => rows.length)).toEqual([3, 2]);
      // The next batch's wait starts at its own first row.
      await vi.advanceTimersByTimeAsync(15);
      recorder.record(row);
      await vi.advanceTimersByTimeAsync(19);
      expect(insertMany).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(insertMany.mock.calls.map(([rows]) => rows.length)).toEqual([3, 2, 1]);
      await recorder.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps spend that failed to write, and never replays spend when only the logs failed', async () => {
    const keysDown = fakeStore(true, false);
    const recorder = new UsageRecorder(keysDown.store, { flushIntervalMs: 60_000, maxBatch: 100, onError: () => undefined });
    recorder.record(row, { keyId: 'k', amount: 5 });
    await recorder.flush();
    expect(recorder.pending('k')).toBe(5);

    const logsDown = fakeStore(false, true);
    const second = new UsageRecorder(logsDown.store, { flushIntervalMs: 60_000, maxBatch: 100, onError: () => undefined });
    second.record(row, { keyId: 'k', amount: 5 });
    await second.flush();
    expect(second.pending('k')).toBe(0);
    await second.flush();
    expect(logsDown.addUsed).toHaveBeenCalledOnce();
    await recorder.close().catch(() => undefined);
    await second.close();
  });
});
