/**
 * Budget alerts on both engines: the sweep queues one delivery for the
 * highest threshold newly reached (50, 80, 100 %), once per period however
 * many instances sweep, and a new period starts over.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BudgetAlerts, thresholdReached } from '../../src/billing/budgets/alerts.js';
import { periodWindow } from '../../src/billing/budgets/periods.js';
import type { BudgetRecord } from '../../src/storage/budget-types.js';
import type { Store } from '../../src/storage/types.js';
import { engines, useTestStore } from '../storage/engines.js';

const NOON = Date.parse('2026-05-12T12:00:00Z');

describe('thresholdReached', () => {
  it('is the highest of 50, 80, 100 reached by either limit', () => {
    const record = { amountUsd: 10, tokens: 1000 } as BudgetRecord;
    expect(thresholdReached(record, { usd: 4.9, tokens: 100 })).toBe(0);
    expect(thresholdReached(record, { usd: 5, tokens: 0 })).toBe(50);
    expect(thresholdReached(record, { usd: 1, tokens: 850 })).toBe(80);
    expect(thresholdReached(record, { usd: 12, tokens: 0 })).toBe(100);
  });
});

describe.each(engines)('budget alerts on $engine', ({ engine, skip }) => {
  const opened = useTestStore(engine, skip);
  let store: Store;
  beforeAll(() => {
    store = opened.store;
  });

  const deliveries = async (budgetId: string) =>
    (await store.db.selectFrom('task_deliveries').selectAll().where('task_id', '=', budgetId).orderBy('created_at').execute()).map((row) => ({
      event: row.event,
      url: row.url,
      payload: JSON.parse(row.payload),
    }));

  it.skipIf(skip)('queues the highest threshold reached once per period, whichever instance sweeps', async () => {
    let now = NOON;
    const budget = await store.budgets.create({ scopeKind: 'team', scopeId: 'team_a', name: 'eng', amountUsd: 10, period: 'daily', alertUrl: 'https://hooks.example/budgets' });
    await store.budgets.create({ scopeKind: 'team', scopeId: 'team_a', amountUsd: 10, period: 'daily' }); // no alerts asked
    const instances = [0, 1, 2].map(() => new BudgetAlerts(store, { maxAttempts: 6, now: () => now }));
    const start = periodWindow('daily', 'UTC', now).start;
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: start, usd: 4, tokens: 0 }]);
    expect(await instances[0]!.sweep()).toBe(0);
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: start, usd: 4.5, tokens: 0 }]);
    expect((await Promise.all(instances.map((alerts) => alerts.sweep()))).reduce((a, b) => a + b)).toBe(1);
    expect(await instances[1]!.sweep()).toBe(0);
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: start, usd: 2, tokens: 0 }]);
    expect(await instances[2]!.sweep()).toBe(1);
    const sent = await deliveries(budget.id);
    expect(sent.map((delivery) => delivery.event)).toEqual(['budget.80', 'budget.100']);
    expect(sent[0]).toMatchObject({
      url: 'https://hooks.example/budgets',
      payload: { event: 'budget.threshold', threshold: 80, budget: { id: budget.id, name: 'eng', scopeKind: 'team', scopeId: 'team_a' }, spent: { usd: 8.5 }, resetsAt: '2026-05-13T00:00:00.000Z' },
    });

    // The next day is a new period: nothing spent, nothing to say, until it is spent again.
    now += 86_400_000;
    expect(await instances[0]!.sweep()).toBe(0);
    await store.budgets.addSpend([{ budgetId: budget.id, periodStart: start + 86_400_000, usd: 5, tokens: 0 }]);
    expect(await instances[0]!.sweep()).toBe(1);
    expect((await deliveries(budget.id)).map((delivery) => delivery.event)).toEqual(['budget.80', 'budget.100', 'budget.50']);
  });
});
