/**
 * Budgets as stored: a limit in USD and/or tokens on a key, a user or a team,
 * over a period in a time zone, and each period's running totals (a new
 * period is a new row, so nothing ever resets them).
 */

export const BUDGET_SCOPES = ['key', 'user', 'team'] as const;
export type BudgetScopeKind = (typeof BUDGET_SCOPES)[number];

export const BUDGET_PERIODS = ['daily', 'weekly', 'monthly', 'lifetime'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

export interface BudgetRecord {
  id: string;
  scopeKind: BudgetScopeKind;
  /** The key's, user's or team's id. */
  scopeId: string;
  name: string | null;
  /** USD per period; null: no money limit (then `tokens` is set). */
  amountUsd: number | null;
  /** Tokens (input plus output) per period; null: no token limit. */
  tokens: number | null;
  period: BudgetPeriod;
  /** IANA zone the period's days start in. */
  timeZone: string;
  /** Where alerts at 50, 80 and 100 % of a limit are posted; null: none. */
  alertUrl: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewBudget {
  scopeKind: BudgetScopeKind;
  scopeId: string;
  name?: string | null;
  amountUsd?: number | null;
  tokens?: number | null;
  period: BudgetPeriod;
  timeZone?: string;
  alertUrl?: string | null;
}

export type BudgetPatch = Partial<Omit<NewBudget, 'scopeKind' | 'scopeId'>>;

/** What one period of one budget has seen settled. */
export interface BudgetSpend {
  usd: number;
  tokens: number;
}

/** Spend to add to one budget's period (the batched settle). */
export interface BudgetSpendDelta {
  budgetId: string;
  periodStart: number;
  usd: number;
  tokens: number;
}

export interface BudgetRepository {
  create(budget: NewBudget): Promise<BudgetRecord>;
  get(id: string): Promise<BudgetRecord | undefined>;
  /** Oldest first; narrowed to one scope kind, or one scope, or those with an alert address, when given. */
  list(filter?: { scopeKind?: BudgetScopeKind; scopeId?: string; alerting?: boolean }): Promise<BudgetRecord[]>;
  update(id: string, patch: BudgetPatch): Promise<BudgetRecord | undefined>;
  /** Deletes the budget and its running totals; whether it existed. */
  delete(id: string): Promise<boolean>;
  /** What a budget's period starting at `periodStart` has seen settled (zero when nothing yet). */
  spent(budgetId: string, periodStart: number): Promise<BudgetSpend>;
  /** What each budget has settled in the period starting at the time given for it (budgets with nothing settled left out). */
  spentIn(periodStarts: ReadonlyMap<string, number>): Promise<Map<string, BudgetSpend>>;
  /**
   * Marks a period as alerted at `percent` unless it already was at that or
   * higher (the row is created when the period has none); whether this call
   * marked it, so one instance alone sends the alert.
   */
  markAlerted(budgetId: string, periodStart: number, percent: number): Promise<boolean>;
  /** Adds settled spend to each budget's period, creating the period's row on its first spend. */
  addSpend(deltas: readonly BudgetSpendDelta[]): Promise<void>;
}
