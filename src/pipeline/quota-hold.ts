/**
 * Holds a request's possible cost against its key's quota before routing
 * (see billing/quota/ledger.ts); keys without a quota skip it entirely.
 */
import { estimateCost, declaredOutputLimit } from '../billing/quota/estimate.js';
import type { QuotaHold } from '../billing/quota/ledger.js';
import type { ClientKey } from '../http/auth.js';
import type { AppContext } from '../http/context.js';

/** Undefined, not a promise, for a key without a quota: nothing to hold, nothing to wait for. */
export function holdQuota(
  ctx: AppContext,
  key: ClientKey,
  model: string,
  request: { inputBytes: number; body?: Record<string, unknown>; outputTokens?: number },
): Promise<QuotaHold | undefined> | undefined {
  if (key.record.quota === null) return undefined;
  const outputTokens = request.outputTokens ?? (request.body && declaredOutputLimit(request.body));
  const estimate = estimateCost(ctx.prices, model, request.inputBytes, outputTokens);
  return ctx.quota.hold(key.record, estimate, ctx.auth.spent(key));
}
