/**
 * Budget holds in PostgreSQL, inside the ledger's hold transaction: each
 * budget's row is locked (holds of one budget queue behind each other), its
 * period's settled spend plus the live holds compared with its limits, and a
 * hold row inserted per budget. A release deletes them and adds the actual
 * cost and tokens to the period's running total in one transaction, so the
 * spend is settled the moment the hold goes.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { budgetExhausted, budgetSpent } from '../budgets/budget-check.js';
import type { BudgetLimit } from '../budgets/budget-index.js';
import type { BudgetClaim } from './ledger.js';

// biome-ignore lint/suspicious/noExplicitAny: the store hands over its untyped Kysely handle, as the storage layer does
type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type Trx = Transaction<any>;

/** Holds every budget of the claim under `holdId`, or throws the first spent one's refusal; the periods held in. */
export async function holdBudgetRows(trx: Trx, claim: BudgetClaim, estimate: number, holdId: string, now: number, expiresAt: number): Promise<number[]> {
  const starts = claim.limits.map((limit) => limit.window(claim.now).start);
  // Locked in id order, so two requests sharing budgets never wait on each other in a cycle.
  const order = claim.limits.map((_, index) => index).sort((a, b) => (claim.limits[a]!.record.id < claim.limits[b]!.record.id ? -1 : 1));
  for (const index of order) {
    const limit = claim.limits[index]!;
    const start = starts[index]!;
    await sql`select id from budgets where id = ${limit.record.id} for update`.execute(trx);
    await trx.deleteFrom('budget_holds').where('budget_id', '=', limit.record.id).where('expires_at', '<=', now).execute();
    const row = await sql<{ usd: number; tokens: number; held_usd: number; held_tokens: number }>`
      select
        coalesce((select spent_usd from budget_spend where budget_id = ${limit.record.id} and period_start = ${start}), 0) as usd,
        coalesce((select spent_tokens from budget_spend where budget_id = ${limit.record.id} and period_start = ${start}), 0) as tokens,
        coalesce((select sum(amount_usd) from budget_holds where budget_id = ${limit.record.id} and period_start = ${start}), 0) as held_usd,
        coalesce((select sum(tokens) from budget_holds where budget_id = ${limit.record.id} and period_start = ${start}), 0) as held_tokens
    `.execute(trx);
    // The database is the truth here, not this instance's view of the budget.
    const found = row.rows[0];
    const usd = Number(found?.usd ?? 0) + Number(found?.held_usd ?? 0);
    if (budgetSpent(limit.record, usd, Number(found?.tokens ?? 0) + Number(found?.held_tokens ?? 0))) throw budgetExhausted(limit, claim.now);
    await trx
      .insertInto('budget_holds')
      .values({ id: `${holdId}.${index}`, budget_id: limit.record.id, period_start: start, amount_usd: estimate, tokens: claim.tokens, expires_at: expiresAt })
      .execute();
  }
  return starts;
}

/** Ends the holds of `holdId` and adds the actual spend to each budget's period. */
export async function releaseBudgetRows(db: Db | Trx, limits: readonly BudgetLimit[], starts: readonly number[], holdId: string, cost: number, tokens: number): Promise<void> {
  for (let index = 0; index < limits.length; index++) {
    await db.deleteFrom('budget_holds').where('id', '=', `${holdId}.${index}`).execute();
    if (cost === 0 && tokens === 0) continue;
    await db
      .insertInto('budget_spend')
      .values({ budget_id: limits[index]!.record.id, period_start: starts[index]!, spent_usd: cost, spent_tokens: tokens })
      .onConflict((oc) =>
        oc.columns(['budget_id', 'period_start']).doUpdateSet({
          spent_usd: sql`budget_spend.spent_usd + excluded.spent_usd`,
          spent_tokens: sql`budget_spend.spent_tokens + excluded.spent_tokens`,
        }),
      )
      .execute();
  }
}
