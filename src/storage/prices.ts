/**
 * Operator prices as stored, by model name or `prefix*` pattern. The price is
 * kept as JSON text and handed back as text: this layer does not know the
 * price schema, so a row edited by hand into something that no longer parses
 * is read like any other and judged by the layer above (billing/stored-prices.ts),
 * which skips it alone.
 */
import type { Kysely, Selectable } from 'kysely';
import { toJson, toNumber } from './columns.js';
import type { Database, PricesTable } from './schema.js';
import type { PriceRecord, PriceRepository, PriceSource } from './types.js';

function toRecord(row: Selectable<PricesTable>): PriceRecord {
  return { model: row.model, priceJson: row.price, source: row.source, updatedAt: toNumber(row.updated_at) };
}

export class KyselyPriceRepository implements PriceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<PriceRecord[]> {
    const rows = await this.db.selectFrom('prices').selectAll().execute();
    // Sorted here, by code unit: the engines' collations order `*` and `-` differently.
    return rows.map(toRecord).sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  }

  async get(model: string): Promise<PriceRecord | undefined> {
    const row = await this.db.selectFrom('prices').selectAll().where('model', '=', model).executeTakeFirst();
    return row && toRecord(row);
  }

  async put(model: string, price: object, source: PriceSource): Promise<PriceRecord> {
    const values = { price: toJson(price), source, updated_at: Date.now() };
    const row = await this.db
      .insertInto('prices')
      .values({ model, ...values })
      .onConflict((oc) => oc.column('model').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async delete(model: string, onlySource?: PriceSource): Promise<boolean> {
    let query = this.db.deleteFrom('prices').where('model', '=', model);
    if (onlySource !== undefined) query = query.where('source', '=', onlySource);
    const result = await query.executeTakeFirst();
    return toNumber(result.numDeletedRows) > 0;
  }
}
