/**
 * A refresh on an interval that never keeps the process alive, shared by the
 * in-memory views of the store (channels, prices): what fails is reported and
 * the next tick tries again.
 */
export class RefreshTimer {
  private timer?: NodeJS.Timeout;

  /** Runs `refresh` every `intervalMs` (never when 0 or less), replacing a timer already running. */
  start(intervalMs: number, refresh: () => Promise<unknown>, onError: (error: unknown) => void): void {
    this.stop();
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => refresh().catch(onError), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
