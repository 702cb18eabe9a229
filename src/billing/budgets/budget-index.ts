/**
 * Every budget in memory, by the scope it limits: one map per scope kind, so
 * a request looks up at most three entries (its key, user and team) however
 * many budgets there are, and a key with none finds `undefined` without
 * allocating. Rebuilt from the store at start, on the refresh interval, after
 * an admin write and on the change feed (topic `budgets`); each budget keeps
 * what this instance knows was settled in its current period.
 */
import { RefreshTimer } from '../../core/refresh-timer.js';
import type { BudgetRecord } from '../../storage/budget-types.js';
import type { KeyRecord, Store } from '../../storage/types.js';
import { PeriodCursors, type PeriodCursor, type PeriodWindow } from './periods.js';

/** One budget as enforced: its record, its period's cursor and the spend settled in the current period. */
export class BudgetLimit {
  private settledStart = Number.NaN;
  private settledUsd = 0;
  private settledTokens = 0;

  constructor(
    readonly record: BudgetRecord,
    private readonly cursor: PeriodCursor,
  ) {}

  window(now: number): PeriodWindow {
    return this.cursor.current(now);
  }

  /** Settled in the period starting at `start` (a new period has settled nothing yet). */
  settledUsdIn(start: number): number {
    return this.settledStart === start ? this.settledUsd : 0;
  }

  settledTokensIn(start: number): number {
    return this.settledStart === start ? this.settledTokens : 0;
  }

  /** Spend settled in a period: counted when it is the period last counted or a later one. */
  addSettled(start: number, usd: number, tokens: number): void {
    if (start < this.settledStart) return;
    if (start !== this.settledStart) {
      this.settledStart = start;
      this.settledUsd = 0;
      this.settledTokens = 0;
    }
    this.settledUsd += usd;
    this.settledTokens += tokens;
  }
}

/** Spend of one budget's period not yet written (the recorder's batch), read when the index is rebuilt. */
export type PendingBudgetSpend = (budgetId: string, periodStart: number) => { usd: number; tokens: number } | undefined;

const NO_PENDING: PendingBudgetSpend = () => undefined;

export class BudgetIndex {
  private byKey = new Map<string, BudgetLimit[]>();
  private byUser = new Map<string, BudgetLimit[]>();
  private byTeam = new Map<string, BudgetLimit[]>();
  private byId = new Map<string, BudgetLimit>();
  private readonly cursors = new PeriodCursors();
  private readonly timer = new RefreshTimer();
  private count = 0;

  constructor(
    private readonly store: Pick<Store, 'budgets'>,
    readonly now: () => number = Date.now,
    private readonly pending: PendingBudgetSpend = NO_PENDING,
  ) {}

  get size(): number {
    return this.count;
  }

  async refresh(): Promise<void> {
    const records = await this.store.budgets.list();
    const now = this.now();
    const limits = records.map((record) => new BudgetLimit(record, this.cursors.of(record.period, record.timeZone)));
    const starts = new Map(limits.map((limit) => [limit.record.id, limit.window(now).start]));
    const settled = await this.store.budgets.spentIn(starts);
    this.load(limits, now, settled);
  }

  startAutoRefresh(intervalMs: number, onError: (error: unknown) => void): void {
    this.timer.start(intervalMs, () => this.refresh(), onError);
  }

  stop(): void {
    this.timer.stop();
  }

  /** The budgets as given, with what each has settled in its current period (tests and benchmarks build an index this way). */
  load(limits: readonly BudgetLimit[], now: number, settled: ReadonlyMap<string, { usd: number; tokens: number }> = new Map()): void {
    const byKey = new Map<string, BudgetLimit[]>();
    const byUser = new Map<string, BudgetLimit[]>();
    const byTeam = new Map<string, BudgetLimit[]>();
    const byId = new Map<string, BudgetLimit>();
    for (const limit of limits) {
      byId.set(limit.record.id, limit);
      const start = limit.window(now).start;
      const stored = settled.get(limit.record.id);
      const unwritten = this.pending(limit.record.id, start);
      limit.addSettled(start, (stored?.usd ?? 0) + (unwritten?.usd ?? 0), (stored?.tokens ?? 0) + (unwritten?.tokens ?? 0));
      const map = limit.record.scopeKind === 'key' ? byKey : limit.record.scopeKind === 'user' ? byUser : byTeam;
      const list = map.get(limit.record.scopeId);
      if (list) list.push(limit);
      else map.set(limit.record.scopeId, [limit]);
    }
    this.byKey = byKey;
    this.byUser = byUser;
    this.byTeam = byTeam;
    this.byId = byId;
    this.count = limits.length;
  }

  /** The budgets a request of `key` is checked against; undefined (nothing allocated) when none applies. */
  applicable(key: KeyRecord): readonly BudgetLimit[] | undefined {
    if (this.count === 0) return undefined;
    const ofKey = this.byKey.get(key.id);
    const ofUser = key.userId ? this.byUser.get(key.userId) : undefined;
    const ofTeam = key.teamId ? this.byTeam.get(key.teamId) : undefined;
    if (!ofUser && !ofTeam) return ofKey;
    if (!ofKey && !ofTeam) return ofUser;
    if (!ofKey && !ofUser) return ofTeam;
    return [...(ofKey ?? []), ...(ofUser ?? []), ...(ofTeam ?? [])];
  }

  /**
   * Spend settled in a budget's period, counted by the budget as this index
   * now holds it (the index may have been rebuilt since the request began;
   * a budget deleted meanwhile counts nothing).
   */
  noteSettled(budgetId: string, periodStart: number, usd: number, tokens: number): void {
    this.byId.get(budgetId)?.addSettled(periodStart, usd, tokens);
  }
}
