/**
 * Picks where quota holds live: Redis when configured (shared, fast), else
 * PostgreSQL (shared by the instances on one database), else memory (SQLite
 * serves one instance).
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisOutagePolicy } from '../../config/env.js';
import type { Store } from '../../storage/types.js';
import type { UsageRecorder } from '../usage-recorder.js';
import { LocalQuotaLedger, type QuotaLedger } from './ledger.js';
import { PostgresQuotaLedger } from './postgres-ledger.js';
import { RedisQuotaLedger } from './redis-ledger.js';

export function selectQuotaLedger(input: {
  store: Store;
  redis?: Redis;
  outage: RedisOutagePolicy;
  recorder: UsageRecorder;
  logger: Logger;
  /** Redis failures not to log here (Redis being away is logged once, where it is watched). */
  quiet?: (error: unknown) => boolean;
}): QuotaLedger {
  const { store, redis, logger, recorder } = input;
  if (redis) {
    return new RedisQuotaLedger(redis, {
      fallback: input.outage === 'open' ? new LocalQuotaLedger() : undefined,
      onError: (error) => input.quiet?.(error) || logger.warn({ err: error }, 'quota ledger: Redis failed'),
    });
  }
  if (store.engine === 'postgres') {
    return new PostgresQuotaLedger(
      store.db,
      (keyId, cost, error) => {
        logger.warn({ err: error, keyId }, 'quota release not written; its cost goes with the batched spend');
        recorder.addSpend(keyId, cost);
      },
      (budgetId, periodStart, cost, tokens) => recorder.addBudgetSpend(budgetId, periodStart, cost, tokens),
    );
  }
  return new LocalQuotaLedger();
}
