/**
 * Quota holds in PostgreSQL, for instances that share a database but no
 * Redis. A hold locks the key's row for one short transaction (check the
 * stored spend plus the live holds, insert the hold); a release deletes the
 * hold and adds the cost to the stored spend in one transaction, so the spend
 * of these keys is written at once rather than batched.
 */
import { sql, type Kysely } from 'kysely';
import type { KeyRecord } from '../../storage/types.js';
import { exhausted, HOLD_TTL_MS, holdId, type QuotaHold, type QuotaLedger } from './ledger.js';

export class PostgresQuotaLedger implements QuotaLedger {
  constructor(
    // biome-ignore lint/suspicious/noExplicitAny: the store hands over its untyped Kysely handle, as the storage layer does
    private readonly db: Kysely<any>,
    /** Takes the cost of a release that could not be written (its hold then expires), to be written with the batched spend. */
    private readonly onUnwritten: (keyId: string, cost: number, error: unknown) => void,
  ) {}

  async hold(key: KeyRecord, estimate: number): Promise<QuotaHold> {
    if (key.quota === null) return { recordsSpend: false, release: async () => {} };
    const quota = key.quota;
    const id = holdId();
    const now = Date.now();
    const granted = await this.db.transaction().execute(async (trx) => {
      const row = await sql<{ used: number }>`select used from keys where id = ${key.id} for update`.execute(trx);
      const used = Number(row.rows[0]?.used ?? 0);
      await trx.deleteFrom('quota_holds').where('key_id', '=', key.id).where('expires_at', '<=', now).execute();
      const held = await trx
        .selectFrom('quota_holds')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('held'))
        .where('key_id', '=', key.id)
        .executeTakeFirst();
      if (used + Number(held?.held ?? 0) >= quota) return false;
      await trx
        .insertInto('quota_holds')
        .values({ id, key_id: key.id, amount: estimate, expires_at: now + HOLD_TTL_MS })
        .execute();
      return true;
    });
    if (!granted) throw exhausted();
    let released = false;
    return {
      recordsSpend: true,
      release: async (cost) => {
        if (released) return;
        released = true;
        try {
          await this.db.transaction().execute(async (trx) => {
            await trx.deleteFrom('quota_holds').where('id', '=', id).execute();
            if (cost > 0) await sql`update keys set used = used + ${cost} where id = ${key.id}`.execute(trx);
          });
        } catch (error) {
          this.onUnwritten(key.id, cost, error);
        }
      },
    };
  }

  /** Stored spend is read from the keys table at each hold: nothing to add. */
  async adjust(): Promise<void> {}
}
