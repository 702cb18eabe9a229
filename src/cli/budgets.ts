/**
 * The CLI's budget commands, through the operations the admin API uses
 * (admin/budgets.ts) and so the one budget schema: `budgets list`, `create`,
 * `set` and `delete`. A key budget may name its key by name or id.
 */
import { budgetListQuery } from '../admin/budget-schemas.js';
import { budgetView, createBudget, deleteBudget, listBudgets, updateBudget } from '../admin/budgets.js';
import { parseQuery } from '../admin/queries.js';
import { GatewayError } from '../core/errors.js';
import type { AuditActor } from '../storage/audit-types.js';
import type { Store } from '../storage/types.js';

export const BUDGET_USAGE = `  budgets list [--scope-kind key|user|team] [--scope-id ID]
  budgets create --scope-kind key|user|team --scope-id ID|KEY-NAME --period daily|weekly|monthly|lifetime
                 [--amount-usd USD] [--tokens N] [--time-zone ZONE] [--name NAME] [--alert-url URL]
                            (at least one of --amount-usd and --tokens; zone: IANA, default UTC)
  budgets set ID [--amount-usd USD|none] [--tokens N|none] [--period P] [--time-zone ZONE] [--name NAME]
                 [--alert-url URL|none]
  budgets delete ID
`;

export const BUDGET_COMMANDS = ['budgets list', 'budgets create', 'budgets set', 'budgets delete'];

export const BUDGET_OPTIONS = {
  'scope-kind': { type: 'string' },
  'scope-id': { type: 'string' },
  'amount-usd': { type: 'string' },
  tokens: { type: 'string' },
  period: { type: 'string' },
  'time-zone': { type: 'string' },
  'alert-url': { type: 'string' },
} as const;

type Values = Record<string, unknown>;

/** A number flag; `none` clears the limit; absent: unchanged. */
function limit(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  return value === 'none' ? null : Number(value);
}

function fields(values: Values) {
  return {
    name: values.name,
    amountUsd: limit(values['amount-usd']),
    tokens: limit(values.tokens),
    period: values.period,
    timeZone: values['time-zone'],
    alertUrl: values['alert-url'] === 'none' ? null : values['alert-url'],
  };
}

/** Without undefined fields, so the schema sees only what was given. */
const given = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));

export async function runBudgetCommand(store: Store, command: string, ref: string | undefined, values: Values, actor: AuditActor): Promise<unknown> {
  switch (command) {
    case 'budgets list':
      return listBudgets(store, parseQuery(budgetListQuery(), given({ scopeKind: values['scope-kind'], scopeId: values['scope-id'] })));
    case 'budgets create': {
      let scopeId = values['scope-id'];
      if (values['scope-kind'] === 'key' && typeof scopeId === 'string' && !(await store.keys.get(scopeId))) scopeId = (await store.keys.getByName(scopeId))?.id ?? scopeId;
      return budgetView(store, await createBudget(store, given({ scopeKind: values['scope-kind'], scopeId, ...fields(values) }), actor));
    }
    case 'budgets set':
      return budgetView(store, await updateBudget(store, budgetId(ref), given(fields(values)), actor));
    case 'budgets delete':
      return deleteBudget(store, budgetId(ref), actor);
    default:
      throw new GatewayError('invalid_request', `unknown command "${command}"`);
  }
}

function budgetId(ref: string | undefined): string {
  if (!ref) throw new GatewayError('invalid_request', 'name the budget: its ID');
  return ref;
}
