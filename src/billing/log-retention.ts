/**
 * Log retention: a periodic job deletes request-log rows older than the
 * retention age and beyond the row cap, and audit-log entries older than
 * theirs, oldest first, in small batches with a pause between them, so a
 * large backlog never holds the database or memory long. Usage summaries
 * read the rows, so spend already counted on keys is kept there
 * (`keys.used`) whatever the logs keep.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store } from '../storage/types.js';

export interface RetentionOptions {
  /** Rows older than this many days go; 0 keeps every age. */
  retentionDays: number;
  /** At most about this many rows are kept; 0 keeps any number. */
  maxRows: number;
  /** Audit entries older than this many days go; 0 (or absent) keeps every age. */
  auditRetentionDays?: number;
  intervalMs: number;
  batch?: number;
  onError: (error: unknown) => void;
}

const DAY = 86_400_000;

/** Deletes batch after batch until a batch comes back short. Returns the rows deleted. */
async function inBatches(batch: number, prune: (batch: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await prune(batch);
    total += deleted;
    if (deleted < batch) return total;
    await nextTurn();
  }
}

/** One pass over the request log: deletes batch after batch until nothing is past the limits. Returns the rows deleted. */
export async function pruneLogs(store: Store, options: Omit<RetentionOptions, 'intervalMs' | 'onError' | 'auditRetentionDays'>): Promise<number> {
  if (options.retentionDays <= 0 && options.maxRows <= 0) return 0;
  const before = options.retentionDays > 0 ? Date.now() - options.retentionDays * DAY : undefined;
  const keepRows = options.maxRows > 0 ? options.maxRows : undefined;
  return inBatches(options.batch ?? 1000, (batch) => store.logs.prune({ before, keepRows, batch }));
}

/** One pass over the audit log: entries older than `retentionDays` go. Returns the entries deleted. */
export async function pruneAudit(store: Store, options: { retentionDays: number; batch?: number }): Promise<number> {
  if (options.retentionDays <= 0) return 0;
  const before = Date.now() - options.retentionDays * DAY;
  return inBatches(options.batch ?? 1000, (batch) => store.audit.prune({ before, batch }));
}

/** Starts the periodic pass (unref'd); returns its stop. */
export function startLogRetention(store: Store, options: RetentionOptions): () => void {
  const auditDays = options.auditRetentionDays ?? 0;
  if (options.retentionDays <= 0 && options.maxRows <= 0 && auditDays <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pruneLogs(store, options)
      .then(() => pruneAudit(store, { retentionDays: auditDays, batch: options.batch }))
      .catch(options.onError)
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
