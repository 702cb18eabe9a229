/**
 * Quota that holds across instances. Before a request of a key with a quota
 * is routed, the spend it may cause is held: refused when the key's settled
 * spend plus the holds in flight already reach the quota. When the request
 * settles, the hold is released and the actual cost added. So instances
 * together overspend by at most the requests admitted while room was left,
 * one in flight per instance at the boundary. Holds left by a crash expire.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../core/errors.js';
import type { KeyRecord } from '../../storage/types.js';

/** One request's reservation. */
export interface QuotaHold {
  /**
   * True when `release` itself writes the cost to the key's stored spend
   * (the batched recorder must then not add it again).
   */
  readonly recordsSpend: boolean;
  /** Ends the hold, adding the actual cost to the key's spend. Never throws. */
  release(cost: number): Promise<void>;
}

export interface QuotaLedger {
  /**
   * Holds `estimate` for the key, or throws quota_exhausted. `settled` is the
   * spend this instance knows of (stored plus not yet flushed), the starting
   * point of a shared ledger that has not seen the key yet.
   */
  hold(key: KeyRecord, estimate: number, settled: number): Promise<QuotaHold>;
  /**
   * Spend (or a refund, negative) stored without a hold, e.g. a task's charge
   * written with the task: a shared ledger adds it to its running total.
   */
  adjust(keyId: string, amount: number): Promise<void>;
}

/** How long a hold outlives a request that never settles (an instance that crashed). */
export const HOLD_TTL_MS = 15 * 60_000;

export function exhausted(): GatewayError {
  return new GatewayError('quota_exhausted', 'API key quota is exhausted');
}

export function holdId(): string {
  return `hold_${randomUUID()}`;
}

/**
 * Holds in memory: exact for one instance (SQLite, or any engine without
 * another instance sharing the key).
 */
export class LocalQuotaLedger implements QuotaLedger {
  private readonly held = new Map<string, number>();

  async hold(key: KeyRecord, estimate: number, settled: number): Promise<QuotaHold> {
    const held = this.held.get(key.id) ?? 0;
    if (key.quota !== null && settled + held >= key.quota) throw exhausted();
    this.held.set(key.id, held + estimate);
    let released = false;
    return {
      recordsSpend: false,
      release: async () => {
        if (released) return;
        released = true;
        const left = (this.held.get(key.id) ?? 0) - estimate;
        if (left <= 1e-12) this.held.delete(key.id);
        else this.held.set(key.id, left);
      },
    };
  }

  /** Stored spend reaches the key cache this instance reads (see KeyAuthenticator.noteSpend). */
  async adjust(): Promise<void> {}
}
