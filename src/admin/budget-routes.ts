/**
 * Budgets through the admin API (operations in budgets.ts). Reads flush this
 * instance's unwritten spend first so `spent` is what was settled; a change
 * reaches this instance's budget index at once and the others' through the
 * change feed (topic `budgets`).
 *
 *   GET/POST          /admin/budgets        list (?scopeKind=…&scopeId=…) / create
 *   GET/PATCH/DELETE  /admin/budgets/:id    read / change / delete
 *
 * A team admin reaches the budgets of their teams and of their teams' keys;
 * a budget on a user needs full reach.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { AppContext } from '../http/context.js';
import { reaches } from './access.js';
import { reachFor, requireReach, type HeldReach } from './reach.js';
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
  const needs = (permission: 'budgets.read' | 'budgets.write') => ({ config: { permission } });

  /** The team a budget's scope belongs to: the team itself, a key's team; a user's budget belongs to none (full reach only). */
  const teamOfScope = async (scopeKind: string, scopeId: string): Promise<string | null> => {
    if (scopeKind === 'team') return scopeId;
    if (scopeKind === 'key') return (await ctx.store.keys.get(scopeId))?.teamId ?? null;
    return null;
  };
  const budgetInReach = async (request: FastifyRequest<{ Params: { id: string } }>, permission: 'budgets.read' | 'budgets.write') => {
    const reach = reachFor(request, permission);
    const record = await getBudget(ctx.store, request.params.id);
    if (!reach.all) requireReach(reach, await teamOfScope(record.scopeKind, record.scopeId), `no budget with id "${request.params.id}"`);
    return record;
  };

  app.get('/budgets', needs('budgets.read'), async (request) => {
    const reach = reachFor(request, 'budgets.read');
    const filter = parseQuery(budgetListQuery(), request.query);
    await ctx.recorder.flush();
    const budgets = await listBudgets(ctx.store, filter);
    if (reach.all) return { data: budgets };
    const keyTeams = new Map((await ctx.store.keys.list()).map((key) => [key.id, key.teamId]));
    const teamOf = (budget: (typeof budgets)[number]) => (budget.scopeKind === 'team' ? budget.scopeId : budget.scopeKind === 'key' ? (keyTeams.get(budget.scopeId) ?? null) : null);
    return { data: budgets.filter((budget) => reaches(reach, teamOf(budget))) };
  });
  app.post('/budgets', needs('budgets.write'), async (request, reply) => {
    const reach = reachFor(request, 'budgets.write');
    if (!reach.all) await refuseOutOfReach(reach, request.body, teamOfScope);
    const record = await createBudget(ctx.store, request.body ?? {}, actorOf(request));
    await budgetsChanged();
    reply.code(201);
    return budgetView(ctx.store, record);
  });
  app.get<{ Params: { id: string } }>('/budgets/:id', needs('budgets.read'), async (request) => {
    const record = await budgetInReach(request, 'budgets.read');
    await ctx.recorder.flush();
    return budgetView(ctx.store, record);
  });
  app.patch<{ Params: { id: string } }>('/budgets/:id', needs('budgets.write'), async (request) => {
    await budgetInReach(request, 'budgets.write');
    const record = await updateBudget(ctx.store, request.params.id, request.body ?? {}, actorOf(request));
    await budgetsChanged();
    return budgetView(ctx.store, record);
  });
  app.delete<{ Params: { id: string } }>('/budgets/:id', needs('budgets.write'), async (request) => {
    await budgetInReach(request, 'budgets.write');
    const deleted = await deleteBudget(ctx.store, request.params.id, actorOf(request));
    await budgetsChanged();
    return deleted;
  });
}

/** A team admin's new budget: on one of their teams or one of their teams' keys; a person's budget needs full reach. */
async function refuseOutOfReach(reach: HeldReach, body: unknown, teamOfScope: (kind: string, id: string) => Promise<string | null>): Promise<void> {
  const { scopeKind, scopeId } = (body ?? {}) as { scopeKind?: unknown; scopeId?: unknown };
  if (typeof scopeKind !== 'string' || typeof scopeId !== 'string') return; // the schema's own 400 says what is missing
  if (scopeKind === 'user') {
    throw new GatewayError('permission', 'scopeKind: a budget on a user needs the budgets.write permission across the gateway; a team admin sets budgets on their teams and their teams’ keys', {
      param: 'scopeKind',
    });
  }
  if (!reaches(reach, await teamOfScope(scopeKind, scopeId))) {
    throw new GatewayError('permission', `scopeId: a team admin sets budgets on the teams they administer and those teams’ keys only`, { param: 'scopeId' });
  }
}
