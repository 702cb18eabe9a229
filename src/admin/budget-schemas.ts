/** Budgets through the admin API: the list's filters and what a budget looks like, with its current period. */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { BUDGET_PERIODS, BUDGET_SCOPES } from '../storage/budget-types.js';
import { text } from './queries.js';
import { ms } from './schema-parts.js';

export const budgetListQuery = builtOnce(() =>
  z
    .object({
      scopeKind: z.enum(BUDGET_SCOPES).optional().describe('Only budgets on this kind of scope: `key`, `user`, `team`.'),
      scopeId: text('Only budgets on this key, user or team (its id).').optional(),
    })
    .strict(),
);

export const budgetViewSchema = builtOnce(() =>
  z.object({
    id: z.string(),
    scopeKind: z.enum(BUDGET_SCOPES),
    scopeId: z.string(),
    name: z.string().nullable(),
    amountUsd: z.number().nullable().describe('USD per period; null: no money limit.'),
    tokens: z.number().int().nullable().describe('Tokens per period; null: no token limit.'),
    period: z.enum(BUDGET_PERIODS),
    timeZone: z.string(),
    alertUrl: z.string().nullable().describe('Where alerts at 50, 80 and 100 % are posted; null: none.'),
    spent: z.object({ usd: z.number(), tokens: z.number().int() }).describe('Settled this period (requests in flight not included).'),
    remaining: z.object({ usd: z.number().nullable(), tokens: z.number().int().nullable() }).describe('Left this period of each limit set; null for a limit not set.'),
    resetsAt: z.string().nullable().describe('When the current period ends, ISO 8601; null for `lifetime`.'),
    periodStart: z.string().nullable().describe('When the current period began, ISO 8601; null for `lifetime`.'),
    createdAt: ms(),
    updatedAt: ms(),
  }),
);

export const budgetListSchema = builtOnce(() => z.object({ data: z.array(budgetViewSchema()) }));

export const budgetDeletedSchema = builtOnce(() => z.object({ id: z.string(), deleted: z.literal(true) }));
