/**
 * Prices through the admin API: the operator's prices (set here or by the
 * config file), one model's price set or deleted, what a request for a model
 * would be charged at and why, and the built-in catalogue the gateway falls
 * back on. A write is charged from this instance's next request on and from
 * the other instances' once the change feed (or their refresh) tells them.
 *
 *   GET            /admin/prices               operator prices, problems, the catalogue in use
 *   PUT/DELETE     /admin/prices/:model        set / delete one (the model URL-encoded; `*` and `prefix*` too)
 *   GET            /admin/prices/quote         ?model=…[&upstreamModel=…]
 *   GET            /admin/prices/catalogue     the catalogue's models and prices
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { actorOf } from './audit-actor.js';
import { deletePrice, listPrices, setPrice } from './prices.js';
import { parseQuery, priceQuoteQuery } from './queries.js';

export function registerPriceRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The change is written: a failed refresh here must not answer as if it were not (the timer refreshes again).
  const pricesChanged = async () => {
    await ctx.storedPrices.refresh().catch((error) => ctx.logger.warn({ err: error }, 'price refresh failed; the last prices read stay in effect'));
    void ctx.changes.publish('prices');
  };

  app.get('/prices', { config: { permission: 'prices.read' } }, async () => ({ ...(await listPrices(ctx.store)), catalogue: ctx.prices.catalogueAbout() ?? null }));

  app.put<{ Params: { model: string } }>('/prices/:model', { config: { permission: 'prices.write' } }, async (request) => {
    const view = await setPrice(ctx.store, request.params.model, request.body ?? {}, actorOf(request));
    await pricesChanged();
    return view;
  });

  app.delete<{ Params: { model: string } }>('/prices/:model', { config: { permission: 'prices.write' } }, async (request) => {
    const deleted = await deletePrice(ctx.store, request.params.model, actorOf(request));
    await pricesChanged();
    return deleted;
  });

  app.get('/prices/quote', { config: { permission: 'prices.read' } }, async (request) => {
    const { model, upstreamModel } = parseQuery(priceQuoteQuery(), request.query);
    return { model, upstreamModel: upstreamModel ?? null, quote: ctx.prices.quote(model, upstreamModel) ?? null };
  });

  // No catalogue set: an empty list, which the console shows as "no catalogue".
  app.get('/prices/catalogue', { config: { permission: 'prices.read' } }, async () => ({ about: ctx.prices.catalogueAbout() ?? null, data: (await ctx.prices.catalogueModels()) ?? [] }));
}
