/**
 * Budgets and their per-period running totals, on both engines. Spend is
 * added with an upsert keyed by (budget, period start): the first spend of a
 * period creates its row, so a period's reset needs no job.
 */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { BudgetPatch, BudgetPeriod, BudgetRecord, BudgetRepository, BudgetScopeKind, BudgetSpend, BudgetSpendDelta, NewBudget } from './budget-types.js';
import { toNullableNumber, toNumber } from './columns.js';
import { isWellFormedId, newId } from './ids.js';
import type { BudgetsTable, Database } from './schema.js';

function toRecord(row: Selectable<BudgetsTable>): BudgetRecord {
  return {
    id: row.id,
    scopeKind: row.scope_kind as BudgetScopeKind,
    scopeId: row.scope_id,
    name: row.name,
    amountUsd: toNullableNumber(row.amount_usd),
    tokens: toNullableNumber(row.tokens),
    period: row.period as BudgetPeriod,
    timeZone: row.time_zone,
    alertUrl: row.alert_url,
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

function toColumns(patch: BudgetPatch): Updateable<BudgetsTable> {
  const set: Updateable<BudgetsTable> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.amountUsd !== undefined) set.amount_usd = patch.amountUsd;
  if (patch.tokens !== undefined) set.tokens = patch.tokens;
  if (patch.period !== undefined) set.period = patch.period;
  if (patch.timeZone !== undefined) set.time_zone = patch.timeZone;
  if (patch.alertUrl !== undefined) set.alert_url = patch.alertUrl;
  return set;
}

/** Periods per upsert: four parameters each, well under both engines' limits. */
const SPEND_CHUNK = 500;

export class KyselyBudgetRepository implements BudgetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(budget: NewBudget): Promise<BudgetRecord> {
    const now = Date.now();
    const row = await this.db
      .insertInto('budgets')
      .values({
        id: newId('bud'),
        scope_kind: budget.scopeKind,
        scope_id: budget.scopeId,
        name: budget.name ?? null,
        amount_usd: budget.amountUsd ?? null,
        tokens: budget.tokens ?? null,
        period: budget.period,
        time_zone: budget.timeZone ?? 'UTC',
        alert_url: budget.alertUrl ?? null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async get(id: string): Promise<BudgetRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const row = await this.db.selectFrom('budgets').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(filter: { scopeKind?: BudgetScopeKind; scopeId?: string; alerting?: boolean } = {}): Promise<BudgetRecord[]> {
    let query = this.db.selectFrom('budgets').selectAll();
    if (filter.scopeKind !== undefined) query = query.where('scope_kind', '=', filter.scopeKind);
    if (filter.scopeId !== undefined) query = query.where('scope_id', '=', filter.scopeId);
    if (filter.alerting) query = query.where('alert_url', 'is not', null);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async update(id: string, patch: BudgetPatch): Promise<BudgetRecord | undefined> {
    if (!isWellFormedId(id)) return undefined;
    const set = toColumns(patch);
    set.updated_at = Date.now();
    const row = await this.db.updateTable('budgets').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toRecord(row);
  }

  async delete(id: string): Promise<boolean> {
    if (!isWellFormedId(id)) return false;
    await this.db.deleteFrom('budget_spend').where('budget_id', '=', id).execute();
    await this.db.deleteFrom('budget_holds').where('budget_id', '=', id).execute();
    const result = await this.db.deleteFrom('budgets').where('id', '=', id).executeTakeFirst();
    return toNumber(result.numDeletedRows) > 0;
  }

  async spent(budgetId: string, periodStart: number): Promise<BudgetSpend> {
    const row = await this.db.selectFrom('budget_spend').select(['spent_usd', 'spent_tokens']).where('budget_id', '=', budgetId).where('period_start', '=', periodStart).executeTakeFirst();
    return { usd: toNumber(row?.spent_usd ?? 0), tokens: toNumber(row?.spent_tokens ?? 0) };
  }

  async spentIn(periodStarts: ReadonlyMap<string, number>): Promise<Map<string, BudgetSpend>> {
    const found = new Map<string, BudgetSpend>();
    const ids = [...periodStarts.keys()];
    for (let start = 0; start < ids.length; start += SPEND_CHUNK) {
      const chunk = ids.slice(start, start + SPEND_CHUNK);
      const starts = [...new Set(chunk.map((id) => periodStarts.get(id) as number))];
      const rows = await this.db
        .selectFrom('budget_spend')
        .select(['budget_id', 'period_start', 'spent_usd', 'spent_tokens'])
        .where('budget_id', 'in', chunk)
        .where('period_start', 'in', starts)
        .execute();
      for (const row of rows) {
        if (periodStarts.get(row.budget_id) !== toNumber(row.period_start)) continue;
        found.set(row.budget_id, { usd: toNumber(row.spent_usd), tokens: toNumber(row.spent_tokens) });
      }
    }
    return found;
  }

  async markAlerted(budgetId: string, periodStart: number, percent: number): Promise<boolean> {
    await this.db
      .insertInto('budget_spend')
      .values({ budget_id: budgetId, period_start: periodStart, spent_usd: 0, spent_tokens: 0, alerted_percent: 0 })
      .onConflict((oc) => oc.columns(['budget_id', 'period_start']).doNothing())
      .execute();
    const result = await this.db
      .updateTable('budget_spend')
      .set({ alerted_percent: percent })
      .where('budget_id', '=', budgetId)
      .where('period_start', '=', periodStart)
      .where('alerted_percent', '<', percent)
      .executeTakeFirst();
    return toNumber(result.numUpdatedRows) > 0;
  }

  async addSpend(deltas: readonly BudgetSpendDelta[]): Promise<void> {
    // One row per period: PostgreSQL refuses an upsert that changes a row twice.
    const merged = new Map<string, BudgetSpendDelta>();
    for (const delta of deltas) {
      if (delta.usd === 0 && delta.tokens === 0) continue;
      const name = `${delta.budgetId} ${delta.periodStart}`;
      const seen = merged.get(name);
      merged.set(name, seen ? { ...seen, usd: seen.usd + delta.usd, tokens: seen.tokens + delta.tokens } : delta);
    }
    const rows = [...merged.values()];
    for (let start = 0; start < rows.length; start += SPEND_CHUNK) {
      const values = rows.slice(start, start + SPEND_CHUNK).map((delta) => ({
        budget_id: delta.budgetId,
        period_start: delta.periodStart,
        spent_usd: delta.usd,
        spent_tokens: delta.tokens,
        alerted_percent: 0,
      }));
      await this.db
        .insertInto('budget_spend')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['budget_id', 'period_start']).doUpdateSet({
            spent_usd: sql`budget_spend.spent_usd + excluded.spent_usd`,
            spent_tokens: sql`budget_spend.spent_tokens + excluded.spent_tokens`,
          }),
        )
        .execute();
    }
  }
}
