/**
 * Budgets on both engines: stored and read back, filtered by scope, changed
 * (the scope kept), deleted with their running totals; spend added per
 * period with an upsert, so a new period starts from nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from './engines.js';

describe.each(engines)('budgets on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  it.skipIf(skip)('stores a budget, lists it by scope, changes and deletes it', async () => {
    const team = await store.budgets.create({ scopeKind: 'team', scopeId: 'team_a', name: 'monthly cap', amountUsd: 100, period: 'monthly', timeZone: 'Europe/Paris' });
    const key = await store.budgets.create({ scopeKind: 'key', scopeId: 'key_a', tokens: 5000, period: 'daily' });
    expect(team).toMatchObject({ scopeKind: 'team', scopeId: 'team_a', name: 'monthly cap', amountUsd: 100, tokens: null, period: 'monthly', timeZone: 'Europe/Paris' });
    expect(key).toMatchObject({ name: null, amountUsd: null, tokens: 5000, timeZone: 'UTC' });
    expect(await store.budgets.get(team.id)).toEqual(team);
    expect((await store.budgets.list({ scopeKind: 'team' })).map((budget) => budget.id)).toEqual([team.id]);
    expect((await store.budgets.list({ scopeId: 'key_a' })).map((budget) => budget.id)).toEqual([key.id]);
    const changed = await store.budgets.update(team.id, { amountUsd: 150, timeZone: 'UTC' });
    expect(changed).toMatchObject({ id: team.id, scopeId: 'team_a', amountUsd: 150, timeZone: 'UTC' });
    await store.budgets.addSpend([{ budgetId: key.id, periodStart: 1000, usd: 1, tokens: 10 }]);
    expect(await store.budgets.delete(key.id)).toBe(true);
    expect(await store.budgets.delete(key.id)).toBe(false);
    expect(await store.budgets.get(key.id)).toBeUndefined();
    expect(await store.budgets.spent(key.id, 1000)).toEqual({ usd: 0, tokens: 0 });
    expect(await store.budgets.get('bad id\u0000')).toBeUndefined();
  });

  it.skipIf(skip)('adds spend per period: twice to one period in one batch, and a new period from nothing', async () => {
    const budget = await store.budgets.create({ scopeKind: 'user', scopeId: 'user_s', amountUsd: 10, period: 'daily' });
    await store.budgets.addSpend([
      { budgetId: budget.id, periodStart: 86_400_000, usd: 0.25, tokens: 100 },
      { budgetId: budget.id, periodStart: 86_400_000, usd: 0.5, tokens: 50 },
    ]);
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: 86_400_000, usd: 1, tokens: 1 }]);
    expect(await store.budgets.spent(budget.id, 86_400_000)).toEqual({ usd: 1.75, tokens: 151 });
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: 2 * 86_400_000, usd: 2, tokens: 2 }]);
    expect(await store.budgets.spent(budget.id, 2 * 86_400_000)).toEqual({ usd: 2, tokens: 2 });
    const found = await store.budgets.spentIn(new Map([[budget.id, 86_400_000]]));
    expect(found.get(budget.id)).toEqual({ usd: 1.75, tokens: 151 });
    expect((await store.budgets.spentIn(new Map([[budget.id, 5]]))).size).toBe(0);
  });
});
