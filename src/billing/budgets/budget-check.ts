/**
 * Whether a budget has room in a period, and the refusal when it has none:
 * the family's quota error naming the budget (its scope and name, only the
 * request's own) and when it resets.
 */
import { GatewayError } from '../../core/errors.js';
import type { BudgetRecord } from '../../storage/budget-types.js';
import type { BudgetLimit } from './budget-index.js';

/** Whether settled plus held (`usd`, `tokens`) reaches a limit the budget sets. */
export function budgetSpent(record: BudgetRecord, usd: number, tokens: number): boolean {
  if (record.amountUsd !== null && usd >= record.amountUsd) return true;
  return record.tokens !== null && tokens >= record.tokens;
}

export function budgetExhausted(limit: BudgetLimit, now: number): GatewayError {
  const { record } = limit;
  const name = record.name === null ? `${record.scopeKind} budget ${record.id}` : `${record.scopeKind} budget "${record.name}"`;
  const end = limit.window(now).end;
  const when = Number.isFinite(end) ? `it resets at ${new Date(end).toISOString()}` : 'it does not reset (lifetime)';
  return new GatewayError('quota_exhausted', `the ${record.period} ${name} is spent; ${when}`);
}
