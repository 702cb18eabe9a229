/**
 * The config file's budgets, written to the store as prices are (see
 * apply-prices.ts): a budget the file declares is created, or changed to the
 * file's values, when the file's declaration changed since it was last
 * applied, so a change made through the admin API stays until the file
 * changes that budget. A budget the file declared before and no longer
 * declares is deleted. Budgets are matched by name; their scope as
 * apply-teams.ts names owners: a key or a team by name, a user by email, and
 * each by id as well.
 */
import type { AuditActor } from '../storage/audit-types.js';
import type { BudgetRecord } from '../storage/budget-types.js';
import type { Store } from '../storage/types.js';
import type { ConfigBudget } from './file.js';
import { fingerprint } from './fingerprints.js';

/** Per budget name, the fingerprint of what the file last declared. */
export type BudgetFingerprints = Record<string, string>;

export async function applyConfigBudgets(store: Store, budgets: readonly ConfigBudget[], last: BudgetFingerprints, actor: AuditActor): Promise<{ changed: number; fingerprints: BudgetFingerprints }> {
  const fingerprints: BudgetFingerprints = {};
  let changed = 0;
  for (const budget of budgets) {
    fingerprints[budget.name] = fingerprint(budget);
    if (last[budget.name] === fingerprints[budget.name]) continue;
    try {
      if (await writeBudget(store, budget, actor)) changed++;
    } catch (error) {
      throw new Error(`config budgets "${budget.name}": ${(error as Error).message}`, { cause: error });
    }
  }
  for (const name of Object.keys(last)) {
    if (Object.hasOwn(fingerprints, name)) continue;
    const deleted = await store.transaction(async (tx) => {
      const before = await byName(tx.budgets.list(), name);
      if (!before || !(await tx.budgets.delete(before.id))) return false;
      await tx.audit.record(actor, 'budget.delete', 'budget', before, null);
      return true;
    });
    if (deleted) changed++;
  }
  return { changed, fingerprints };
}

async function byName(list: Promise<BudgetRecord[]>, name: string): Promise<BudgetRecord | undefined> {
  return (await list).find((budget) => budget.name === name);
}

/** The id of the key, team or user the budget names (by name, email or id), or an error saying which was not found. */
async function scopeIdOf(store: Pick<Store, 'keys' | 'teams' | 'users'>, budget: ConfigBudget): Promise<string> {
  const named = budget.scopeId;
  if (budget.scopeKind === 'key') {
    const key = (await store.keys.get(named)) ?? (await store.keys.getByName(named));
    if (!key) throw new Error(`scopeId: no key named or with id "${named}"`);
    return key.id;
  }
  if (budget.scopeKind === 'team') {
    const team = (await store.teams.get(named)) ?? (await store.teams.getByName(named));
    if (!team) throw new Error(`scopeId: no team named or with id "${named}" (declare it in teams)`);
    return team.id;
  }
  const user = (await store.users.get(named)) ?? (await store.users.getByEmail(named));
  if (!user) throw new Error(`scopeId: no user with email or id "${named}" (declare it in users)`);
  return user.id;
}

/** Creates the budget or brings it to the file's values; whether anything was written. */
async function writeBudget(store: Store, budget: ConfigBudget, actor: AuditActor): Promise<boolean> {
  return store.transaction(async (tx) => {
    const scopeId = await scopeIdOf(tx, budget);
    const fields = { name: budget.name, amountUsd: budget.amountUsd ?? null, tokens: budget.tokens ?? null, period: budget.period, timeZone: budget.timeZone, alertUrl: budget.alertUrl ?? null };
    const before = await byName(tx.budgets.list(), budget.name);
    if (!before) {
      await tx.audit.record(actor, 'budget.create', 'budget', null, await tx.budgets.create({ scopeKind: budget.scopeKind, scopeId, ...fields }));
      return true;
    }
    // The scope is a budget's for life: a file that moves a budget to another scope replaces it.
    if (before.scopeKind !== budget.scopeKind || before.scopeId !== scopeId) {
      await tx.budgets.delete(before.id);
      await tx.audit.record(actor, 'budget.delete', 'budget', before, null);
      await tx.audit.record(actor, 'budget.create', 'budget', null, await tx.budgets.create({ scopeKind: budget.scopeKind, scopeId, ...fields }));
      return true;
    }
    const same =
      before.amountUsd === fields.amountUsd && before.tokens === fields.tokens && before.period === fields.period && before.timeZone === fields.timeZone && before.alertUrl === fields.alertUrl;
    if (same) return false;
    await tx.audit.record(actor, 'budget.update', 'budget', before, (await tx.budgets.update(before.id, fields)) ?? null);
    return true;
  });
}
