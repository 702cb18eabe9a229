/**
 * Admin operations on the operator's prices, shared by the admin HTTP API
 * and the CLI: list (with which prices the config file owns, and the stored
 * ones that no longer parse), set one model's price, delete it. Prices are
 * checked with the one schema the config file uses (config/price-schema.ts).
 * A price set here is the admin's (`source: admin`); the config file sets
 * it again only when its own price for that model changes.
 */
import { z } from 'zod';
import { readStoredPrice, readStoredPrices, type PriceProblem } from '../billing/stored-prices.js';
import type { ModelPrice, PriceEntry } from '../billing/prices.js';
import { configOwnedFields } from '../config/apply.js';
import { pricePatternSchema, priceSchema } from '../config/price-schema.js';
import { builtOnce } from '../core/built-once.js';
import { GatewayError } from '../core/errors.js';
import { modelNameProblem } from '../core/model-name.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';
import { parseInput } from './service.js';

export interface PriceView {
  model: string;
  price: ModelPrice;
  source: PriceEntry['source'];
  updatedAt: number;
  /** The config file declares this model's price: it sets it again when the file's price for it changes. */
  configOwned: boolean;
}

const modelParam = builtOnce(() => z.object({ model: pricePatternSchema() }));

function viewOf(entry: PriceEntry, owned: Record<string, unknown>): PriceView {
  return { model: entry.model, price: entry.price, source: entry.source, updatedAt: entry.updatedAt ?? 0, configOwned: Object.hasOwn(owned, entry.model) };
}

/** Every stored price, and the stored ones skipped because they no longer parse. */
export async function listPrices(store: Store): Promise<{ data: PriceView[]; problems: PriceProblem[] }> {
  const [records, owned] = await Promise.all([store.prices.list(), configOwnedFields(store)]);
  const { entries, problems } = readStoredPrices(records);
  return { data: entries.map((entry) => viewOf(entry, owned.prices)), problems };
}

/** Sets (or replaces) one model's price as the admin's. `model`: a name, `*` or `prefix*`. */
export async function setPrice(store: Store, model: string, input: unknown, actor: AuditActor): Promise<PriceView> {
  const checked = parseInput(modelParam(), { model }).model;
  const price = parseInput(priceSchema(), input);
  const record = await store.transaction(async (tx) => {
    const before = await tx.prices.get(checked);
    const after = await tx.prices.put(checked, price, 'admin');
    await tx.audit.record(actor, 'price.set', 'price', before ?? null, after);
    return after;
  });
  const entry = readStoredPrice(record);
  if ('problem' in entry) throw new Error(`the price stored for "${checked}" does not read back: ${entry.problem}`);
  return viewOf(entry, (await configOwnedFields(store)).prices);
}

/** Deletes one model's price; a stored name the schema now refuses (a row edited by hand) can be deleted too. */
export async function deletePrice(store: Store, model: string, actor: AuditActor): Promise<{ model: string; deleted: true }> {
  // Text no database stores (a NUL, say) names no stored price.
  const problem = modelNameProblem(model);
  if (problem) throw new GatewayError('invalid_request', `model: ${problem}`, { param: 'model' });
  return store.transaction(async (tx) => {
    const before = await tx.prices.get(model);
    if (!before || !(await tx.prices.delete(model))) throw new GatewayError('not_found', `no price set for "${model}"`, { param: 'model' });
    await tx.audit.record(actor, 'price.delete', 'price', before, null);
    return { model, deleted: true as const };
  });
}
