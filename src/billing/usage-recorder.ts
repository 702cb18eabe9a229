/**
 * Request logs and key spend are written in batches, off the request path:
 * a request only appends to memory; a timer (or a full batch) flushes them in
 * one transaction each. Shutdown flushes what is left. One row the database
 * refuses never costs the others: a failed insert is split in halves until
 * the refused rows stand alone, and only those are dropped (and logged).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../storage/columns.js';
import type { BudgetSpendDelta } from '../storage/budget-types.js';
import type { RequestLogRow } from '../storage/request-log-types.js';
import type { Store } from '../storage/types.js';

/**
 * Rows per insert (one transaction). Every commit rewrites the tail pages of
 * the log's B-trees whatever its size, so larger batches cost less a
 * row: 7.8 µs at 100 rows, 6.0 at 200, 5.4 at 400 (bench/README.md). 256
 * rows hold SQLite's synchronous write to about 1.5 ms of the event loop.
 */
export const ROWS_PER_INSERT = 256;

export interface RecorderOptions {
  flushIntervalMs: number;
  maxBatch: number;
  /**
   * The longest a log row waits for its batch to fill. A row that outlives
   * two young-generation collections moves to the old space, and with it
   * everything it holds: a slow trickle should go out in small batches.
   */
  maxRowWaitMs?: number;
  onError: (error: unknown) => void;
  /** A log row the database refused on its own (the rest of its batch was written). */
  onRejectedRow?: (row: RequestLogRow, error: unknown) => void;
}

export class UsageRecorder {
  private rows: RequestLogRow[] = [];
  private spend = new Map<string, number>();
  /** Budget spend not yet written, by budget and period start. */
  private budgetSpend = new Map<string, Map<number, BudgetSpendDelta>>();
  private timer?: NodeJS.Timeout;
  /** Armed by a batch's first row (one timer, re-armed, never one per row). */
  private rowTimer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    private readonly store: Store,
    private readonly options: RecorderOptions,
  ) {
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs);
    this.timer.unref();
  }

  record(row: RequestLogRow, spend?: { keyId: string; amount: number }): void {
    this.rows.push(row);
    if (spend && spend.amount > 0) this.spend.set(spend.keyId, (this.spend.get(spend.keyId) ?? 0) + spend.amount);
    if (this.rows.length >= this.options.maxBatch) void this.flush();
    else if (this.rows.length === 1 && this.options.maxRowWaitMs !== undefined) this.armRowTimer(this.options.maxRowWaitMs);
  }

  private armRowTimer(waitMs: number): void {
    if (this.rowTimer) this.rowTimer.refresh();
    else {
      this.rowTimer = setTimeout(() => void this.flush(), waitMs);
      this.rowTimer.unref();
    }
  }

  /** Spend with no log row of its own (a quota release that could not be written at once). */
  addSpend(keyId: string, amount: number): void {
    if (amount !== 0) this.spend.set(keyId, (this.spend.get(keyId) ?? 0) + amount);
  }

  /** Spend settled in a budget's period, written with the next batch (added to the period's row). */
  addBudgetSpend(budgetId: string, periodStart: number, usd: number, tokens: number): void {
    if (usd === 0 && tokens === 0) return;
    let periods = this.budgetSpend.get(budgetId);
    if (!periods) this.budgetSpend.set(budgetId, (periods = new Map()));
    const delta = periods.get(periodStart);
    if (delta) {
      delta.usd += usd;
      delta.tokens += tokens;
    } else periods.set(periodStart, { budgetId, periodStart, usd, tokens });
  }

  /** Budget spend recorded for a period and not yet written. */
  pendingBudget(budgetId: string, periodStart: number): BudgetSpendDelta | undefined {
    return this.budgetSpend.get(budgetId)?.get(periodStart);
  }

  /** Spend recorded for a key and not yet written. */
  pending(keyId: string): number {
    return this.spend.get(keyId) ?? 0;
  }

  async flush(): Promise<void> {
    // One flush at a time; a caller arriving mid-flush waits for it and then flushes the rest.
    while (this.flushing) await this.flushing;
    if (this.rows.length === 0 && this.spend.size === 0 && this.budgetSpend.size === 0) return;
    const rows = this.rows;
    const spend = this.spend;
    const budgetSpend = this.budgetSpend;
    this.rows = [];
    this.spend = new Map();
    this.budgetSpend = new Map();
    this.flushing = this.write(rows, spend, budgetSpend).finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.rowTimer) clearTimeout(this.rowTimer);
    await this.flush();
  }

  private async write(rows: RequestLogRow[], spend: Map<string, number>, budgetSpend: Map<string, Map<number, BudgetSpendDelta>>): Promise<void> {
    // Spend and logs are written separately, so a failure of one never replays the other.
    if (spend.size > 0) {
      try {
        await this.store.keys.addUsed(spend);
      } catch (error) {
        // Keep the spend for the next flush: it is money.
        for (const [keyId, amount] of spend) this.spend.set(keyId, (this.spend.get(keyId) ?? 0) + amount);
        this.options.onError(error);
      }
    }
    if (budgetSpend.size > 0) {
      const deltas = [...budgetSpend.values()].flatMap((periods) => [...periods.values()]);
      try {
        await this.store.budgets.addSpend(deltas);
      } catch (error) {
        // Kept for the next flush, like key spend.
        for (const delta of deltas) this.addBudgetSpend(delta.budgetId, delta.periodStart, delta.usd, delta.tokens);
        this.options.onError(error);
      }
    }
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      // Log rows are dropped rather than piling up in memory while the database is down.
      if (!(await this.insertIsolated(rows.slice(start, start + ROWS_PER_INSERT)))) return;
      // Let requests waiting meanwhile run between two chunks.
      if (start + ROWS_PER_INSERT < rows.length) await nextTurn();
    }
  }

  /**
   * Inserts `rows`; when the database refuses them, inserts each half on its
   * own, down to single rows, so only the rows it refuses alone are lost (at
   * most 2n-1 statements). False when the database is unreachable: the
   * caller stops there.
   */
  private async insertIsolated(rows: RequestLogRow[]): Promise<boolean> {
    try {
      await this.store.logs.insertMany(rows);
      return true;
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        this.options.onError(error);
        return false;
      }
      if (rows.length === 1) {
        this.options.onRejectedRow?.(rows[0]!, error);
        return true;
      }
      const half = Math.ceil(rows.length / 2);
      return (await this.insertIsolated(rows.slice(0, half))) && (await this.insertIsolated(rows.slice(half)));
    }
  }
}
