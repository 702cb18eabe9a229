/**
 * How many batch lines an instance may have in flight: interactive work
 * first, batch lines on what is left. An additive-increase,
 * multiplicative-decrease limit, judged every window (`sampleMs`):
 *
 * - interactive work seen in the window, or within `quietMs` before it:
 *   the limit drops to 0 at once;
 * - the event loop's delay (its 99th percentile over the window) above
 *   `lagMs`: the limit is halved (the instance is short of CPU, whoever
 *   takes it);
 * - otherwise (idle): one more line, up to the configured concurrency.
 *
 * At a limit of 0 a line may still start once `floorMs` passed since the
 * last, while fewer than the concurrency are in flight, so a batch on an
 * instance that is never idle still moves. The host looks every window, so
 * a line starts every 300 ms by default (about 3 a second, 288,000 a day),
 * fewer when a line takes longer than concurrency × 300 ms.
 *
 * Both decisions are pure functions of their inputs (tested as such); the
 * `BatchPace` class only keeps the state between them.
 */

export interface PaceTuning {
  /** How long a window is, and how often the limit is judged. */
  sampleMs: number;
  /** Interactive work this recent still holds the limit at 0. */
  quietMs: number;
  /** Event-loop delay (p99 over a window) above which the limit is halved. */
  lagMs: number;
  /** At a limit of 0, one line may start this often. */
  floorMs: number;
}

export const DEFAULT_PACE: PaceTuning = { sampleMs: 100, quietMs: 250, lagMs: 50, floorMs: 250 };

/** What one window saw. */
export interface PaceSignals {
  /** Interactive requests were in flight or began during the window. */
  interactive: boolean;
  /** The event loop's delay over the window, 99th percentile, in ms. */
  loopDelayMs: number;
}

export interface LimitInput extends PaceSignals {
  /** The limit so far. */
  limit: number;
  /** Lines in flight at most (the configured concurrency). */
  concurrency: number;
  /** Ms since interactive work was last seen, before this window (Infinity: never). */
  quietForMs: number;
}

/** The next window's limit (AIMD): 0 under interactive work, halved under lag, one more when idle. */
export function nextLimit(input: LimitInput, tuning: PaceTuning = DEFAULT_PACE): number {
  const max = Math.max(0, Math.floor(input.concurrency));
  if (max === 0) return 0;
  if (input.interactive || input.quietForMs < tuning.quietMs) return 0;
  const limit = Math.min(max, Math.max(0, Math.floor(input.limit)));
  if (input.loopDelayMs > tuning.lagMs) return Math.floor(limit / 2);
  return Math.min(max, limit + 1);
}

export interface RoomInput {
  limit: number;
  concurrency: number;
  /** Lines in flight now. */
  running: number;
  /** Ms since this instance last started a line (Infinity: never). */
  sinceStartMs: number;
}

/** How many more lines may start now: up to the limit, or one at the floor rate when the limit is 0. */
export function lineRoom(input: RoomInput, tuning: PaceTuning = DEFAULT_PACE): number {
  const max = Math.max(0, Math.floor(input.concurrency));
  const limit = Math.min(max, Math.max(0, Math.floor(input.limit)));
  if (limit > 0) return Math.max(0, limit - input.running);
  if (max > 0 && input.running < max && input.sinceStartMs >= tuning.floorMs) return 1;
  return 0;
}

/** The state between windows: the limit, when interactive work was last seen, when a line last started. */
export class BatchPace {
  private limit = 1;
  private lastInteractive = Number.NEGATIVE_INFINITY;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    readonly concurrency: number,
    readonly tuning: PaceTuning = DEFAULT_PACE,
  ) {}

  get current(): number {
    return this.limit;
  }

  /** Judges one window; true when lines may start now that could not before. */
  sample(signals: PaceSignals, now: number): boolean {
    const before = this.limit;
    this.limit = nextLimit({ ...signals, limit: before, concurrency: this.concurrency, quietForMs: now - this.lastInteractive }, this.tuning);
    if (signals.interactive) this.lastInteractive = now;
    return this.limit > before || (this.limit === 0 && now - this.lastStart >= this.tuning.floorMs);
  }

  room(running: number, now: number): number {
    return lineRoom({ limit: this.limit, concurrency: this.concurrency, running, sinceStartMs: now - this.lastStart }, this.tuning);
  }

  started(count: number, now: number): void {
    if (count > 0) this.lastStart = now;
  }
}
