/**
 * Quota that holds across instances. Before a request of a key with a quota
 * is routed, the spend it may cause is held: refused when the key's settled
 * spend plus the holds in flight already reach the quota. When the request
 * settles, the hold is released and the actual cost added. So instances
 * together overspend by at most the requests admitted while room was left,
 * one in flight per instance at the boundary. Holds left by a crash expire.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import type { KeyRecord } from '../../storage/types.js';
import { budgetExhausted, budgetSpent } from '../budgets/budget-check.js';
import type { BudgetLimit } from '../budgets/budget-index.js';

/** One request's reservation. */
export interface QuotaHold {
  /**
   * True when `release` itself writes the cost to the key's stored spend
   * (the batched recorder must then not add it again).
   */
  readonly recordsSpend: boolean;
  /** The budgets held, absent without any; `periodStarts[i]` is the period `budgets[i]` was held in, which its spend goes to. */
  readonly budgets?: readonly BudgetLimit[];
  readonly periodStarts?: readonly number[];
  /** Ends the hold, adding the actual cost (and tokens, for budgets) to the shared counters. Never throws. */
  release(cost: number, tokens?: number): Promise<void>;
}

/**
 * A hold over several counters: the key's quota (when it has one) and each
 * budget that applies in its current period, granted all together or not at
 * all. `tokens` is the request's estimate, held against token limits.
 */
export interface BudgetClaim {
  readonly limits: readonly BudgetLimit[];
  readonly tokens: number;
  readonly now: number;
  /** The key's spend is written elsewhere (a task's charge, with the task): a ledger that writes spend at release writes only the budgets'. */
  readonly keyCharged?: boolean;
}

/** Spend added to (or, negative, taken off) one budget's period outside a hold, e.g. a failed task's refund. */
export interface BudgetAdjustment {
  readonly limit: BudgetLimit;
  readonly periodStart: number;
  readonly usd: number;
  readonly tokens: number;
}

export interface QuotaLedger {
  /**
   * Holds `estimate` for the key, or throws quota_exhausted. `settled` is the
   * spend this instance knows of (stored plus not yet flushed), the starting
   * point of a shared ledger that has not seen the key yet.
   */
  hold(key: KeyRecord, estimate: number, settled: number, budgets?: BudgetClaim): Promise<QuotaHold>;
  /**
   * Spend (or a refund, negative) stored without a hold, e.g. a task's charge
   * written with the task: a shared ledger adds it to its running total.
   */
  adjust(keyId: string, amount: number): Promise<void>;
  /** The same for budgets: a shared ledger moves each budget's running total of that period. Never throws. */
  adjustBudgets(adjustments: readonly BudgetAdjustment[]): Promise<void>;
}

/** A hold with nothing held (a key without quota or budgets). */
export const NOTHING_HELD: QuotaHold = { recordsSpend: false, release: async () => {} };

/** How long a hold outlives a request that never settles (an instance that crashed). */
export const HOLD_TTL_MS = 15 * 60_000;

export function exhausted(): GatewayError {
  return new GatewayError('quota_exhausted', 'API key quota is exhausted');
}

export function holdId(): string {
  return `hold_${randomUUID()}`;
}

interface HeldBudget {
  start: number;
  usd: number;
  tokens: number;
}

/**
 * Holds in memory: exact for one instance (SQLite, or any engine without
 * another instance sharing the key). A budget's holds count in the period
 * they were taken in; a new period starts with none.
 */
export class LocalQuotaLedger implements QuotaLedger {
  private readonly held = new Map<string, number>();
  private readonly heldBudgets = new Map<string, HeldBudget>();

  async hold(key: KeyRecord, estimate: number, settled: number, budgets?: BudgetClaim): Promise<QuotaHold> {
    const held = this.held.get(key.id) ?? 0;
    if (key.quota !== null && settled + held >= key.quota) throw exhausted();
    let starts: number[] | undefined;
    if (budgets) {
      starts = budgets.limits.map((limit) => limit.window(budgets.now).start);
      budgets.limits.forEach((limit, index) => {
        const taken = this.heldIn(limit.record.id, starts![index]!);
        const start = starts![index]!;
        if (budgetSpent(limit.record, limit.settledUsdIn(start) + taken.usd, limit.settledTokensIn(start) + taken.tokens)) throw budgetExhausted(limit, budgets.now);
      });
      budgets.limits.forEach((limit, index) => {
        const taken = this.heldIn(limit.record.id, starts![index]!);
        taken.usd += estimate;
        taken.tokens += budgets.tokens;
      });
    }
    if (key.quota !== null) this.held.set(key.id, held + estimate);
    let released = false;
    return {
      recordsSpend: false,
      budgets: budgets?.limits,
      periodStarts: starts,
      release: async () => {
        if (released) return;
        released = true;
        if (key.quota !== null) {
          const left = (this.held.get(key.id) ?? 0) - estimate;
          if (left <= 1e-12) this.held.delete(key.id);
          else this.held.set(key.id, left);
        }
        budgets?.limits.forEach((limit, index) => {
          const taken = this.heldBudgets.get(limit.record.id);
          // A hold of a period gone is forgotten with its period.
          if (!taken || taken.start !== starts![index]) return;
          taken.usd -= estimate;
          taken.tokens -= budgets.tokens;
          if (taken.usd <= 1e-12 && taken.tokens <= 0) this.heldBudgets.delete(limit.record.id);
        });
      },
    };
  }

  /** What is held against a budget in the period starting at `start` (a new period's record replaces the last's). */
  private heldIn(budgetId: string, start: number): HeldBudget {
    let taken = this.heldBudgets.get(budgetId);
    if (!taken || taken.start !== start) {
      taken = { start, usd: 0, tokens: 0 };
      this.heldBudgets.set(budgetId, taken);
    }
    return taken;
  }

  /** Stored spend reaches the key cache this instance reads (see KeyAuthenticator.noteSpend). */
  async adjust(): Promise<void> {}

  /** Settled budget spend is the index's (BudgetIndex.noteSettled), which the caller moves. */
  async adjustBudgets(): Promise<void> {}
}
