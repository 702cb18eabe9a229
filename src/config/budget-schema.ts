/**
 * One budget, the one schema the admin API, the CLI and the config file check
 * it with: a limit in USD and/or tokens on a key, a user or a team, over a
 * period in an IANA time zone. At least one limit is set (checked on the
 * budget as it will be stored, since a change may clear one of them).
 */
import { z } from 'zod';
import { builtOnce } from '../core/built-once.js';
import { hasControlCharacter } from '../core/model-name.js';
import { isTimeZone } from '../core/time-zones.js';
import { BUDGET_PERIODS, BUDGET_SCOPES } from '../storage/budget-types.js';

export const LIMIT_REQUIRED = 'a budget needs amountUsd, tokens or both';

// Descriptions (`describe`) are rendered into docs/admin-api.md and docs/reference.md (npm run docs:reference).
const budgetFields = builtOnce(() => ({
  scopeKind: z.enum(BUDGET_SCOPES).describe('What the budget limits: `key`, `user` or `team`; every request of that key, user or team counts.'),
  scopeId: z.string().min(1).max(128).describe('The id of the key, user or team.'),
  name: z
    .string()
    .min(1)
    .max(128)
    .refine((text) => !hasControlCharacter(text), 'must not contain control characters')
    .nullable()
    .optional()
    .describe('A name to tell budgets apart; a refusal names the budget by it.'),
  amountUsd: z.number().positive().nullable().optional().describe('USD per period; null or absent: no money limit.'),
  tokens: z.number().int().positive().nullable().optional().describe('Tokens (input plus output) per period; null or absent: no token limit.'),
  period: z.enum(BUDGET_PERIODS).describe('`daily`, `weekly` (ISO weeks, from Monday), `monthly` (from the first), each from midnight in `timeZone`; or `lifetime` (never resets).'),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Paris').describe('The IANA time zone whose midnights start the periods (default `UTC`).'),
  alertUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .nullable()
    .optional()
    .describe(
      'Where a JSON alert is posted when a period reaches 50, 80 and 100 % of a limit, delivered and retried like task callbacks (the outbound rules of `SWITCHYARD_OUTBOUND_ALLOW` apply); null or absent: no alerts.',
    ),
}));

export const budgetInputSchema = builtOnce(() =>
  z
    .strictObject({ ...budgetFields(), timeZone: budgetFields().timeZone.default('UTC') })
    .refine((budget) => budget.amountUsd != null || budget.tokens != null, { message: LIMIT_REQUIRED, path: ['amountUsd'] }),
);

/** A change: anything but the scope, which a budget keeps for life. */
export const budgetPatchSchema = builtOnce(() => {
  const { scopeKind: _kind, scopeId: _id, ...fields } = budgetFields();
  return z.strictObject(fields).partial();
});

/**
 * A budget in the config file: named (the file matches stored budgets by
 * name), and its scope named as the file names it elsewhere, since the file
 * never knows ids: a key or a team by name, a user by email (ids work too).
 */
export const configBudgetSchema = builtOnce(() =>
  z
    .strictObject({
      ...budgetFields(),
      name: z
        .string()
        .min(1)
        .max(128)
        .refine((text) => !hasControlCharacter(text), 'must not contain control characters')
        .describe('Unique name; the file matches stored budgets by it.'),
      scopeId: budgetFields().scopeId.describe('The key’s or the team’s name, or the user’s email (an id works too).'),
      timeZone: budgetFields().timeZone.default('UTC'),
    })
    .refine((budget) => budget.amountUsd != null || budget.tokens != null, { message: LIMIT_REQUIRED, path: ['amountUsd'] }),
);
