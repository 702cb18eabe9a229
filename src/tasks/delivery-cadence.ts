/**
 * When the loop looks for due callbacks. A pass that polled a full batch runs
 * the next one at once, and looking for callbacks after each of those added a
 * query per batch (one round trip in three of a busy poll loop on
 * PostgreSQL). So the loop looks after every pass while callbacks are being
 * found or were queued by this instance, and otherwise once per tick, as an
 * idle loop does; a callback queued by another instance waits at most a tick.
 */
export class DeliveryCadence {
  private queued = 1;
  private seen = 0;
  private emptyAt = -Infinity;

  constructor(private readonly tickMs: number) {}

  /** A change made here queued a callback. */
  queue(): void {
    this.queued++;
  }

  due(now: number): boolean {
    return this.queued !== this.seen || now - this.emptyAt >= this.tickMs;
  }

  /** Before a delivery pass: what it will have seen of this instance's queue. */
  snapshot(): number {
    return this.queued;
  }

  /** After a delivery pass that handled `handled` callbacks. */
  ran(snapshot: number, handled: number, now: number): void {
    if (handled > 0) {
      // More may be due: look again after the next pass.
      this.emptyAt = -Infinity;
      return;
    }
    this.seen = snapshot;
    this.emptyAt = now;
  }
}
