/**
 * Request-log retention: a periodic job deletes rows older than the retention
 * age and beyond the row cap, oldest first, in small batches with a pause
 * between them, so a large backlog never holds the database or memory long.
 * Usage summaries read the rows, so spend already counted on keys is kept
 * there (`keys.used`) whatever the logs keep.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store } from '../storage/types.js';

export interface RetentionOptions {
  /** Rows older than this many days go; 0 keeps every age. */
  retentionDays: number;
  /** At most about this many rows are kept; 0 keeps any number. */
  maxRows: number;
  intervalMs: number;
  batch?: number;
  onError: (error: unknown) => void;
}

/** One pass: deletes batch after batch until nothing is past the limits. Returns the rows deleted. */
export async function pruneLogs(store: Store, options: Omit<RetentionOptions, 'intervalMs' | 'onError'>): Promise<number> {
  if (options.retentionDays <= 0 && options.maxRows <= 0) return 0;
  const batch = options.batch ?? 1000;
  const before = options.retentionDays > 0 ? Date.now() - options.retentionDays * 86_400_000 : undefined;
  const keepRows = options.maxRows > 0 ? options.maxRows : undefined;
  let total = 0;
  for (;;) {
    const deleted = await store.logs.prune({ before, keepRows, batch });
    total += deleted;
    if (deleted < batch) return total;
    await nextTurn();
  }
}

/** Starts the periodic pass (unref'd); returns its stop. */
export function startLogRetention(store: Store, options: RetentionOptions): () => void {
  if (options.retentionDays <= 0 && options.maxRows <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pruneLogs(store, options)
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
