/** What every delegation step takes, and how a delegation ends its lines when our batch ended first. */
import type { Logger } from 'pino';
import type { LineAnswer } from '../lines.js';
import type { BatchRepository } from '../repository.js';
import type { BatchRecord } from '../schema.js';
import type { DelegationHost } from './host.js';
import type { DelegationRepository } from './repository.js';

export interface StepDeps {
  repo: DelegationRepository;
  batches: BatchRepository;
  host: DelegationHost;
  owner: string;
  logger: Logger;
  /** First wait between two looks at the upstream batch, and first retry delay; both back off to six times it. */
  pollMs: number;
}

/** How our batch ended, if it did: cancelled, or past its completion window. */
export const batchEnded = (batch: BatchRecord, now: number): 'cancelled' | 'expired' | undefined =>
  batch.status === 'cancelling' || batch.cancellingAt !== null ? 'cancelled' : batch.expiresAt <= now ? 'expired' : undefined;

export function endAnswer(status: 'cancelled' | 'expired'): LineAnswer {
  return status === 'cancelled'
    ? { status, requestId: null, response: null, error: { code: 'batch_cancelled', message: 'This request was not executed: the batch was cancelled.' } }
    : { status, requestId: null, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } };
}
