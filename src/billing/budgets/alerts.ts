/**
 * Alerts when a budget's period reaches 50, 80 and 100 % of a limit: a sweep
 * reads the stored spend of every budget with an `alertUrl` and, for the
 * highest threshold newly reached, marks the period (a compare-and-set, so
 * one instance alone sends it) and queues a callback delivery in the same
 * transaction. The task engine's delivery pass sends it and retries a
 * failure with a doubling delay, like a task's final callback.
 */
import type { Kysely, Transaction } from 'kysely';
import { RefreshTimer } from '../../core/refresh-timer.js';
import type { BudgetRecord, BudgetSpend } from '../../storage/budget-types.js';
import { KyselyBudgetRepository } from '../../storage/budgets.js';
import type { Database } from '../../storage/schema.js';
import type { Store } from '../../storage/types.js';
import type { TaskDatabase } from '../../tasks/schema.js';
import { insertDelivery } from '../../tasks/task-writes.js';
import { periodWindow } from './periods.js';

export const ALERT_THRESHOLDS = [50, 80, 100] as const;

/** The highest threshold the spend has reached, or 0. */
export function thresholdReached(record: BudgetRecord, spent: BudgetSpend): number {
  const usd = record.amountUsd === null ? 0 : (spent.usd / record.amountUsd) * 100;
  const tokens = record.tokens === null ? 0 : (spent.tokens / record.tokens) * 100;
  const percent = Math.max(usd, tokens);
  let reached = 0;
  for (const threshold of ALERT_THRESHOLDS) if (percent >= threshold) reached = threshold;
  return reached;
}

export class BudgetAlerts {
  private readonly timer = new RefreshTimer();

  constructor(
    private readonly store: Store,
    private readonly options: { maxAttempts: number; now?: () => number },
  ) {}

  /** Queues the alerts due; how many. */
  async sweep(): Promise<number> {
    const now = (this.options.now ?? Date.now)();
    const records = await this.store.budgets.list({ alerting: true });
    if (records.length === 0) return 0;
    const windows = new Map(records.map((record) => [record.id, periodWindow(record.period, record.timeZone, now)]));
    const spent = await this.store.budgets.spentIn(new Map([...windows].map(([id, window]) => [id, window.start])));
    let queued = 0;
    for (const record of records) {
      const period = spent.get(record.id);
      const threshold = period ? thresholdReached(record, period) : 0;
      if (threshold === 0 || !period) continue;
      const window = windows.get(record.id)!;
      const payload = {
        event: 'budget.threshold',
        threshold,
        budget: {
          id: record.id,
          name: record.name,
          scopeKind: record.scopeKind,
          scopeId: record.scopeId,
          amountUsd: record.amountUsd,
          tokens: record.tokens,
          period: record.period,
          timeZone: record.timeZone,
        },
        spent: period,
        periodStart: record.period === 'lifetime' ? null : new Date(window.start).toISOString(),
        resetsAt: Number.isFinite(window.end) ? new Date(window.end).toISOString() : null,
        at: new Date(now).toISOString(),
      };
      const sent = await (this.store.db as Kysely<Database>).transaction().execute(async (trx) => {
        if (!(await new KyselyBudgetRepository(trx).markAlerted(record.id, window.start, threshold))) return false;
        const delivery = { url: record.alertUrl!, event: `budget.${threshold}`, final: true, payload: JSON.stringify(payload), maxAttempts: this.options.maxAttempts };
        await insertDelivery(trx as unknown as Transaction<TaskDatabase>, record.id, delivery, now);
        return true;
      });
      if (sent) queued++;
    }
    return queued;
  }

  start(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer.start(intervalMs, () => this.sweep(), onError);
  }

  stop(): void {
    this.timer.stop();
  }
}
