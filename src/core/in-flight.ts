/**
 * The chat calls running on this instance, so that shutdown can end those
 * still running when its grace period is over, and wait for them to be
 * settled (logged and charged) before the recorder's last flush. A call is
 * ended through its own abort signal with a reason the pipeline renders as
 * the family's error frame, the path a stream whose upstream fails takes.
 */
import type { CallAbort } from './call-signal.js';

export class InFlightCalls {
  private readonly calls = new Set<CallAbort>();
  private waiters: (() => void)[] = [];
  private endReason: unknown;

  get size(): number {
    return this.calls.size;
  }

  /** Tracks a call until `settled`; one begun after `endAll` is ended at once. */
  begin(call: CallAbort): void {
    if (this.endReason !== undefined) return call.abort(this.endReason);
    this.calls.add(call);
  }

  /** The call is settled: nothing of it is left to wait for. */
  settled(call: CallAbort): void {
    if (!this.calls.delete(call) || this.calls.size > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Ends every call still running (and any begun from now on) with `reason`. */
  endAll(reason: unknown): void {
    this.endReason = reason;
    for (const call of [...this.calls]) call.abort(reason);
  }

  /** Resolves when no call is left, or after `boundMs` (a call stuck on a client that stopped reading). */
  idle(boundMs: number): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, boundMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
