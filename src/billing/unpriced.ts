/**
 * Work the gateway answered for a model priced nowhere (not by the operator,
 * not by the built-in catalogue) costs nothing, and says so: its log row is
 * marked `unpriced`, the usage sums count it, and the first such request for
 * a model logs one warning (once per model for the life of the process), so
 * no spend is silently lost.
 */
import type { Logger } from 'pino';
import type { PriceTable } from './prices.js';

/** Models warned about, per price table (one per gateway instance); bounded, since a simulator answers any name. */
const warned = new WeakMap<PriceTable, Set<string>>();
const MAX_WARNED = 1024;

/** What to do about a model without a price, for log lines and admin answers. */
export function unpricedMessage(model: string, prices: PriceTable): string {
  const where = prices.catalogueAbout() ? "neither among the operator's prices nor in the built-in catalogue" : "not among the operator's prices (the built-in catalogue is off)";
  return `model "${model}" has no price (${where}): its requests cost nothing and are logged as unpriced; give it a price in the config file's \`prices\` or through the admin API`;
}

/** Logs the warning for `model` the first time it is found unpriced. */
export function warnUnpricedOnce(prices: PriceTable, logger: Logger, model: string): void {
  let models = warned.get(prices);
  if (!models) warned.set(prices, (models = new Set()));
  if (models.has(model) || models.size >= MAX_WARNED) return;
  models.add(model);
  logger.warn({ model }, unpricedMessage(model, prices));
}
