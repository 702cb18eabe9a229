/**
 * Quota holds in PostgreSQL, for instances that share a database but no
 * Redis. A hold locks the key's row for one short transaction (check the
 * stored spend plus the live holds, insert the hold); a release deletes the
 * hold and adds the cost to the stored spend in one transaction, so the spend
 * of these keys is written at once rather than batched. A request's budgets
 * are held in the same transaction (postgres-budgets.ts), and their spend
 * written with the release too.
 */
import { sql, type Kysely } from 'kysely';
import type { KeyRecord } from '../../storage/types.js';
import { type BudgetClaim, exhausted, HOLD_TTL_MS, holdId, NOTHING_HELD, type QuotaHold, type QuotaLedger } from './ledger.js';
import { holdBudgetRows, releaseBudgetRows } from './postgres-budgets.js';

export class PostgresQuotaLedger implements QuotaLedger {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the store hands over its untyped Kysely handle, as the storage layer does
    private readonly db: Kysely<any>,
    /** Takes the cost of a release that could not be written (its hold then expires), to be written with the batched spend. */
    private readonly onUnwritten: (keyId: string, cost: number, error: unknown) => void,
    /** Takes a budget's spend that a failed release could not write, to be written with the batched spend. */
    private readonly onUnwrittenBudget: (budgetId: string, periodStart: number, cost: number, tokens: number) => void = () => undefined,
  ) {}

  async hold(key: KeyRecord, estimate: number, _settled?: number, budgets?: BudgetClaim): Promise<QuotaHold> {
    if (key.quota === null && !budgets) return NOTHING_HELD;
    const quota = key.quota;
    const id = holdId();
    const now = Date.now();
    let starts: number[] | undefined;
    // A spent quota or budget throws inside the transaction: nothing it held stays.
    await this.db.transaction().execute(async (trx) => {
      if (budgets) starts = await holdBudgetRows(trx, budgets, estimate, id, now, now + HOLD_TTL_MS);
      if (quota === null) return;
      const row = await sql<{ used: number }>`select used from keys where id = ${key.id} for update`.execute(trx);
      const used = Number(row.rows[0]?.used ?? 0);
      await trx.deleteFrom('quota_holds').where('key_id', '=', key.id).where('expires_at', '<=', now).execute();
      const held = await trx
        .selectFrom('quota_holds')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('held'))
        .where('key_id', '=', key.id)
        .executeTakeFirst();
      if (used + Number(held?.held ?? 0) >= quota) throw exhausted();
      await trx
        .insertInto('quota_holds')
        .values({ id, key_id: key.id, amount: estimate, expires_at: now + HOLD_TTL_MS })
        .execute();
    });
    let released = false;
    return {
      recordsSpend: true,
      budgets: budgets?.limits,
      periodStarts: starts,
      release: async (cost, tokens = 0) => {
        if (released) return;
        released = true;
        try {
          await this.db.transaction().execute(async (trx) => {
            await trx.deleteFrom('quota_holds').where('id', '=', id).execute();
            // The key's spend is written here whether or not it has a quota: the recorder leaves it to this release.
            if (cost > 0 && !budgets?.keyCharged) await sql`update keys set used = used + ${cost} where id = ${key.id}`.execute(trx);
            if (budgets && starts) await releaseBudgetRows(trx, budgets.limits, starts, id, cost, tokens);
          });
        } catch (error) {
          this.onUnwritten(key.id, budgets?.keyCharged ? 0 : cost, error);
          budgets?.limits.forEach((limit, index) => this.onUnwrittenBudget(limit.record.id, starts![index]!, cost, tokens));
        }
      },
    };
  }

  /** Stored spend is read from the keys table at each hold: nothing to add. */
  async adjust(): Promise<void> {}

  /** Budget spend is read from budget_spend at each hold, where the batched recorder writes the adjustment. */
  async adjustBudgets(): Promise<void> {}
}
