/**
 * What budgets cost a request (`node bench/budgets.mjs`, after
 * `npx tsc -p tsconfig.build.json` or `npm run build`): the admission hold of
 * one request, the in-memory ledger's hold and release as `holdQuota` drives
 * them, over BENCH_BUDGET_CALLS calls (default 200,000), with 10,000 budgets
 * in the index against none:
 *   - a key with neither quota nor budgets (nothing held, no promise),
 *   - a key with a quota and no budgets (today's quota check),
 *   - the same key with 10,000 budgets in the index, none of them its own,
 *   - the same key whose key and team have a budget each (three counters held).
 */
import { BudgetIndex, BudgetLimit } from '../dist/src/billing/budgets/budget-index.js';
import { PeriodCursors } from '../dist/src/billing/budgets/periods.js';
import { LocalQuotaLedger } from '../dist/src/billing/quota/ledger.js';

const CALLS = Number(process.env.BENCH_BUDGET_CALLS ?? 200_000);
const BUDGETS = 10_000;
const ZONES = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Tokyo'];
const PERIODS = ['daily', 'weekly', 'monthly', 'lifetime'];

function indexWith(count, extra = []) {
  const cursors = new PeriodCursors();
  const records = Array.from({ length: count }, (_, i) => ({
    id: `bud_${i}`,
    scopeKind: ['key', 'user', 'team'][i % 3],
    scopeId: `scope_${i}`,
    name: `budget ${i}`,
    amountUsd: 1e9,
    tokens: i % 2 ? 1e12 : null,
    period: PERIODS[i % 4],
    timeZone: ZONES[i % 4],
    alertUrl: null,
    createdAt: 0,
    updatedAt: 0,
  }));
  const index = new BudgetIndex({ budgets: undefined });
  index.load(
    [...records, ...extra].map((record) => new BudgetLimit(record, cursors.of(record.period, record.timeZone))),
    Date.now(),
  );
  return index;
}

const own = (scopeKind, scopeId) => ({
  id: `own_${scopeKind}`,
  scopeKind,
  scopeId,
  name: scopeKind,
  amountUsd: 1e9,
  tokens: 1e12,
  period: 'daily',
  timeZone: 'Europe/Paris',
  alertUrl: null,
  createdAt: 0,
  updatedAt: 0,
});
const key = { id: 'key_bench', quota: 1e9, teamId: 'team_bench', userId: null };
const bare = { ...key, quota: null };

/** The path of quota-hold.ts `holdQuota` with the ledger in memory: look up, hold, release. */
async function run(index, record, calls) {
  const ledger = new LocalQuotaLedger();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const budgets = index.applicable(record);
    if (record.quota === null && budgets === undefined) continue;
    const claim = budgets && { limits: budgets, tokens: 100, now: index.now() };
    const hold = await ledger.hold(record, 0.001, 0, claim);
    await hold.release(0.001, 100);
  }
  return Number(process.hrtime.bigint() - started) / calls / 1000;
}

const none = indexWith(0);
const many = indexWith(BUDGETS);
const manyWithOwn = indexWith(BUDGETS, [own('key', key.id), own('team', key.teamId)]);
const cases = [
  ['no quota, no budgets (10,000 in the index)', many, bare],
  ['quota, no budgets in the index', none, key],
  ['quota, 10,000 budgets in the index, none its own', many, key],
  ['quota + a key budget + a team budget, 10,000 in the index', manyWithOwn, key],
];
for (const [, index, record] of cases) await run(index, record, CALLS / 4); // warm-up
for (const [label, index, record] of cases) console.log(`${label}: ${(await run(index, record, CALLS)).toFixed(3)} µs a request`);
