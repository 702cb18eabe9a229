/**
 * Budgets through the admin API (operations in budgets.ts). Reads flush this
 * instance's unwritten spend first so `spent` is what was settled; a change
 * reaches this instance's budget index at once and the others' through the
 * change feed (topic `budgets`).
 *
 *   GET/POST          /admin/budgets        list (?scopeKind=…&scopeId=…) / create
 *   GET/PATCH/DELETE  /admin/budgets/:id    read / change / delete
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { actorOf } from './audit-actor.js';
import { budgetListQuery } from './budget-schemas.js';
import { budgetView, createBudget, deleteBudget, getBudget, listBudgets, updateBudget } from './budgets.js';
import { parseQuery } from './queries.js';

export function registerBudgetRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The change is written: a failed refresh here must not answer as if it were not (the timer refreshes again).
  const budgetsChanged = async () => {
    await ctx.budgets.refresh().catch((error) => ctx.logger.warn({ err: error }, 'budget refresh failed'));
    void ctx.changes.publish('budgets');
  };

  app.get('/budgets', async (request) => {
    const filter = parseQuery(budgetListQuery(), request.query);
    await ctx.recorder.flush();
    return { data: await listBudgets(ctx.store, filter) };
  });
  app.post('/budgets', async (request, reply) => {
    const record = await createBudget(ctx.store, request.body ?? {}, actorOf(request));
    await budgetsChanged();
    reply.code(201);
    return budgetView(ctx.store, record);
  });
  app.get<{ Params: { id: string } }>('/budgets/:id', async (request) => {
    const record = await getBudget(ctx.store, request.params.id);
    await ctx.recorder.flush();
    return budgetView(ctx.store, record);
  });
  app.patch<{ Params: { id: string } }>('/budgets/:id', async (request) => {
    const record = await updateBudget(ctx.store, request.params.id, request.body ?? {}, actorOf(request));
    await budgetsChanged();
    return budgetView(ctx.store, record);
  });
  app.delete<{ Params: { id: string } }>('/budgets/:id', async (request) => {
    const deleted = await deleteBudget(ctx.store, request.params.id, actorOf(request));
    await budgetsChanged();
    return deleted;
  });
}
