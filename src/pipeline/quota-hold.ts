/**
 * Holds a request's possible cost against its key's quota and every budget
 * that applies to it (its key's, user's and team's) before routing (see
 * billing/quota/ledger.ts); a key with neither skips it entirely. The
 * budgets' settled spend is charged here too, when the request settles.
 */
import { declaredOutputLimit, estimateCost, estimateTokens } from '../billing/quota/estimate.js';
import type { BudgetIndex } from '../billing/budgets/budget-index.js';
import { periodWindow } from '../billing/budgets/periods.js';
import type { BudgetAdjustment, QuotaHold, QuotaLedger } from '../billing/quota/ledger.js';
import type { UsageRecorder } from '../billing/usage-recorder.js';
import type { KeyRecord } from '../storage/types.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';

/** Undefined, not a promise, for a key without a quota or budgets: nothing to hold, nothing to wait for. */
export function holdQuota(
  ctx: AppContext,
  key: ClientKey,
  model: string,
  request: { inputBytes: number; body?: Record<string, unknown>; outputTokens?: number; impliedOutputTokens?: number; perUnitUsd?: number },
): Promise<QuotaHold | undefined> | undefined {
  const budgets = ctx.budgets.applicable(key.record);
  if (key.record.quota === null && budgets === undefined) return undefined;
  const outputTokens = request.outputTokens ?? (request.body && declaredOutputLimit(request.body)) ?? request.impliedOutputTokens;
  // A charge per unit known before routing (n images at the model's `perImage`) is held on top of the tokens'.
  const estimate = estimateCost(ctx.prices, model, request.inputBytes, outputTokens) + (request.perUnitUsd ?? 0);
  const claim = budgets && { limits: budgets, tokens: estimateTokens(request.inputBytes, outputTokens), now: ctx.budgets.now() };
  return ctx.quota.hold(key.record, estimate, ctx.auth.spent(key), claim);
}

/** Adds a settled request's cost and tokens to each budget it was held against, in the period it was held in. */
export function chargeBudgets(ctx: AppContext, hold: QuotaHold, cost: number, tokens: number): void {
  const { budgets, periodStarts } = hold;
  if (!budgets || !periodStarts) return;
  for (let index = 0; index < budgets.length; index++) {
    const id = budgets[index]!.record.id;
    const start = periodStarts[index]!;
    // A ledger that wrote the spend with the release (PostgreSQL) leaves nothing to batch.
    if (!hold.recordsSpend) ctx.recorder.addBudgetSpend(id, start, cost, tokens);
    ctx.budgets.noteSettled(id, start, cost, tokens);
  }
}

/**
 * A task's charge, known before it is submitted, held against the key's
 * budgets alone: the key's quota was checked when it was authorised and is
 * charged with the task. Undefined when no budget applies.
 */
export function holdTaskBudgets(ctx: AppContext, key: ClientKey, cost: number): Promise<QuotaHold> | undefined {
  const budgets = ctx.budgets.applicable(key.record);
  if (!budgets) return undefined;
  return ctx.quota.hold({ ...key.record, quota: null }, cost, 0, { limits: budgets, tokens: 0, now: ctx.budgets.now(), keyCharged: true });
}

/**
 * A task's charge given back (it failed or timed out): each budget of its key
 * gets it back in the period it was charged in, the one holding `chargedAt`,
 * in the store, in this instance's index and in a shared ledger's counters.
 */
export function refundBudgets(services: { budgets: BudgetIndex; recorder: UsageRecorder; quota: QuotaLedger }, key: KeyRecord, cost: number, chargedAt: number): void {
  const budgets = services.budgets.applicable(key);
  if (!budgets) return;
  const adjustments: BudgetAdjustment[] = [];
  for (const limit of budgets) {
    const start = periodWindow(limit.record.period, limit.record.timeZone, chargedAt).start;
    services.recorder.addBudgetSpend(limit.record.id, start, -cost, 0);
    services.budgets.noteSettled(limit.record.id, start, -cost, 0);
    adjustments.push({ limit, periodStart: start, usd: -cost, tokens: 0 });
  }
  void services.quota.adjustBudgets(adjustments);
}
