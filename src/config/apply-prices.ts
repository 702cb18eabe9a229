/**
 * The config file's prices, written to the store as channels are (see
 * apply.ts): a price the file declares is stored with source `config` when
 * the file's value for that model changed since it was last applied, so an
 * operator's change to it through the admin API (a new price, a deletion)
 * stays until the file changes that model's price. A model the file declared
 * before and no longer declares loses its price, unless an operator has set
 * it since (source `admin`). Prices the file never declared are never touched.
 */
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';
import type { ConfigPrice } from './file.js';
import { fingerprint, sameJson } from './fingerprints.js';

/** Per model, the fingerprint of the price the file last declared. */
export type PriceFingerprints = Record<string, string>;

export async function applyConfigPrices(store: Store, prices: Record<string, ConfigPrice>, last: PriceFingerprints, actor: AuditActor): Promise<{ changed: number; fingerprints: PriceFingerprints }> {
  const fingerprints: PriceFingerprints = {};
  let changed = 0;
  for (const [model, price] of Object.entries(prices)) {
    fingerprints[model] = fingerprint(price);
    if (last[model] === fingerprints[model]) continue;
    try {
      if (await alreadyStored(store, model, price)) continue;
      await store.transaction(async (tx) => {
        const before = await tx.prices.get(model);
        await tx.audit.record(actor, 'price.set', 'price', before ?? null, await tx.prices.put(model, price, 'config'));
      });
      changed++;
    } catch (error) {
      throw new Error(`config prices "${model}": ${(error as Error).message}`, { cause: error });
    }
  }
  for (const model of Object.keys(last)) {
    if (Object.hasOwn(prices, model)) continue;
    const deleted = await store.transaction(async (tx) => {
      const before = await tx.prices.get(model);
      if (!before || !(await tx.prices.delete(model, 'config'))) return false;
      await tx.audit.record(actor, 'price.delete', 'price', before, null);
      return true;
    });
    if (deleted) changed++;
  }
  return { changed, fingerprints };
}

/** The same price already stored as the file's (another instance applied it first): its update time stays. */
async function alreadyStored(store: Store, model: string, price: ConfigPrice): Promise<boolean> {
  const stored = await store.prices.get(model);
  if (stored?.source !== 'config') return false;
  try {
    return sameJson(JSON.parse(stored.priceJson), price);
  } catch {
    return false;
  }
}
