/**
 * Admin operations on budgets, shared by the admin HTTP API and the CLI:
 * list (by scope), create, read, change, delete, each change written with its
 * audit entry. A budget is shown with its current period: what it has spent,
 * what remains and when it resets.
 */
import { periodWindow } from '../billing/budgets/periods.js';
import { budgetInputSchema, budgetPatchSchema, LIMIT_REQUIRED } from '../config/budget-schema.js';
import { GatewayError } from '../core/errors.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { BudgetRecord, BudgetScopeKind, BudgetSpend } from '../storage/budget-types.js';
import type { Store } from '../storage/types.js';
import { parseInput } from './service.js';

export interface BudgetView extends BudgetRecord {
  spent: { usd: number; tokens: number };
  /** What is left this period of each limit set; null for a limit not set. */
  remaining: { usd: number | null; tokens: number | null };
  /** When the current period ends (ISO 8601); null for a lifetime budget. */
  resetsAt: string | null;
  periodStart: string | null;
}

export async function budgetView(store: Store, record: BudgetRecord, now = Date.now()): Promise<BudgetView> {
  return viewWith(record, now, await store.budgets.spent(record.id, periodWindow(record.period, record.timeZone, now).start));
}

function viewWith(record: BudgetRecord, now: number, spent: BudgetSpend): BudgetView {
  const window = periodWindow(record.period, record.timeZone, now);
  const lifetime = record.period === 'lifetime';
  return {
    ...record,
    spent,
    remaining: {
      usd: record.amountUsd === null ? null : Math.max(0, record.amountUsd - spent.usd),
      tokens: record.tokens === null ? null : Math.max(0, record.tokens - spent.tokens),
    },
    resetsAt: lifetime ? null : new Date(window.end).toISOString(),
    periodStart: lifetime ? null : new Date(window.start).toISOString(),
  };
}

export async function listBudgets(store: Store, filter: { scopeKind?: BudgetScopeKind; scopeId?: string }): Promise<BudgetView[]> {
  const now = Date.now();
  const records = await store.budgets.list(filter);
  // Every current period's totals in a few queries, not one a budget.
  const spent = await store.budgets.spentIn(new Map(records.map((record) => [record.id, periodWindow(record.period, record.timeZone, now).start])));
  return records.map((record) => viewWith(record, now, spent.get(record.id) ?? { usd: 0, tokens: 0 }));
}

export async function getBudget(store: Store, id: string): Promise<BudgetRecord> {
  const record = await store.budgets.get(id);
  if (!record) throw new GatewayError('not_found', `no budget with id "${id}"`);
  return record;
}

export async function createBudget(store: Store, input: unknown, actor: AuditActor): Promise<BudgetRecord> {
  const data = parseInput(budgetInputSchema(), input);
  return store.transaction(async (tx) => {
    const scope = data.scopeKind === 'key' ? await tx.keys.get(data.scopeId) : data.scopeKind === 'user' ? await tx.users.get(data.scopeId) : await tx.teams.get(data.scopeId);
    if (!scope) throw new GatewayError('invalid_request', `scopeId: no ${data.scopeKind} with id "${data.scopeId}"`, { param: 'scopeId' });
    const record = await tx.budgets.create(data);
    await tx.audit.record(actor, 'budget.create', 'budget', null, record);
    return record;
  });
}

export async function updateBudget(store: Store, id: string, input: unknown, actor: AuditActor): Promise<BudgetRecord> {
  const patch = parseInput(budgetPatchSchema(), input);
  return store.transaction(async (tx) => {
    const before = await tx.budgets.get(id);
    if (!before) throw new GatewayError('not_found', `no budget with id "${id}"`);
    const amountUsd = patch.amountUsd === undefined ? before.amountUsd : patch.amountUsd;
    const tokens = patch.tokens === undefined ? before.tokens : patch.tokens;
    if (amountUsd === null && tokens === null) throw new GatewayError('invalid_request', `amountUsd: ${LIMIT_REQUIRED}`, { param: 'amountUsd' });
    const record = await tx.budgets.update(id, patch);
    if (!record) throw new GatewayError('not_found', `no budget with id "${id}"`);
    await tx.audit.record(actor, 'budget.update', 'budget', before, record);
    return record;
  });
}

export async function deleteBudget(store: Store, id: string, actor: AuditActor): Promise<{ id: string; deleted: true }> {
  return store.transaction(async (tx) => {
    const before = await tx.budgets.get(id);
    if (!before || !(await tx.budgets.delete(id))) throw new GatewayError('not_found', `no budget with id "${id}"`);
    await tx.audit.record(actor, 'budget.delete', 'budget', before, null);
    return { id, deleted: true as const };
  });
}
