/**
 * The batch loop of one instance, beside the task loop: every few ticks it
 * looks after the active batches (a cancelled or expired batch's idle lines
 * ended, a batch with no pending line finalized, finalize.ts), and between
 * them it keeps up to `concurrency` lines in flight, claimed with leases
 * (lines.ts) from the running batches in turn, and renews the leases of
 * those in flight. How many may be in flight right now is the pace's
 * (pace.ts: interactive work first, batch lines on what is left); the host
 * wakes the loop when the pace lets more start. How a line is run (the family's pipeline,
 * with the batch key's limits and billing) is the host's: `runLine`.
 *
 * Exactly once: a line's answer is written only by the attempt holding its
 * lease. An instance killed between a line's upstream answer and writing it
 * leaves the line to be run again once its lease runs out, so that line is
 * sent upstream twice; the window is the write of one row.
 */
import type { Logger } from 'pino';
import type { FileRepository } from '../../storage/files.js';
import type { MediaStore } from '../media.js';
import { finalizeBatch } from './finalize.js';
import type { DelegationLoop } from './delegation/loop.js';
import type { BatchLineRepository, LineAnswer } from './lines.js';
import type { BatchRepository } from './repository.js';
import type { BatchLine, BatchRecord } from './schema.js';

/** What running a line came to: its answer, with `retryAfterMs` when it may be run again later instead (the key's rate limit refused it for now). */
export type LineOutcome = LineAnswer & { retryAfterMs?: number };

export interface BatchRunnerOptions {
  /** Lines in flight on this instance at most (0: none). */
  concurrency: number;
  leaseMs: number;
  tickMs: number;
}

export interface BatchRunnerDeps {
  batches: BatchRepository;
  lines: BatchLineRepository;
  files: FileRepository;
  media: MediaStore;
  logger: Logger;
  owner: string;
  runLine(batch: BatchRecord, line: BatchLine): Promise<LineOutcome>;
  /** How many more lines may start now, `running` being in flight, and that `count` did (pace.ts' `BatchPace`). */
  pace: { room(running: number, now: number): number; started(count: number, now: number): void };
  /** Lines served through upstreams' own batch APIs (delegation/), planned before this instance claims a batch's lines. */
  delegation?: DelegationLoop;
  /** Told once the runner stopped (to release what `busy` watches). */
  stopped?(): void;
}

const ACTIVE_BATCHES = 100;
/** A line refused by the key's limits this often is answered with that refusal. */
const MAX_ATTEMPTS = 8;

export class BatchRunner {
  private readonly inFlight = new Map<string, { line: BatchLine; done: Promise<void> }>();
  private runnable: BatchRecord[] = [];
  private turn = 0;
  private timer?: NodeJS.Timeout;
  private lastCare = 0;
  private lastRenew = Date.now();
  private filling = false;
  private stopping = false;

  constructor(
    private readonly options: BatchRunnerOptions,
    private readonly deps: BatchRunnerDeps,
  ) {}

  get running(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.timer || this.stopping) return;
    this.schedule(0);
  }

  /** Claims lines now if the pace has room (the host calls it when the pace grows). */
  wake(): void {
    if (this.timer && !this.stopping) void this.fill().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'batch lines not claimed'));
  }

  /** Takes no more lines, waits up to `graceMs` for those in flight, and hands back the leases of the rest. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const pending = [...this.inFlight.values()].map((entry) => entry.done);
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(pending), new Promise((resolve) => (bound = setTimeout(resolve, graceMs)))]);
    clearTimeout(bound);
    await this.deps.lines.releaseAll(this.deps.owner).catch((error: unknown) => this.deps.logger.warn({ err: error }, 'batch line leases not released'));
    await this.deps.delegation?.stop();
    this.deps.stopped?.();
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      const now = Date.now();
      if (now - this.lastCare >= Math.max(100, Math.min(1_000, this.options.tickMs * 4))) {
        this.lastCare = now;
        await this.care(now);
      }
      if (now - this.lastRenew >= this.options.leaseMs / 3) await this.renew(now);
      await this.fill();
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'batch pass failed');
    }
    this.schedule(this.options.tickMs);
  }

  /** Ends what a cancel or an expiry left idle, finalizes what is done, and notes the batches with lines to run. */
  private async care(now: number): Promise<void> {
    const runnable: BatchRecord[] = [];
    for (const batch of await this.deps.batches.active(ACTIVE_BATCHES)) {
      if (this.stopping) return;
      if (batch.status === 'finalizing') {
        await this.finalize(batch);
        continue;
      }
      if (batch.status === 'cancelling') await this.deps.lines.endIdle(batch.id, ended('cancelled', 'batch_cancelled', 'This request was not executed: the batch was cancelled.'), now);
      else if (batch.expiresAt <= now) {
        await this.deps.lines.endIdle(batch.id, ended('expired', 'batch_expired', 'This request could not be executed before the completion window expired.'), now);
      }
      if (!(await this.deps.lines.hasPending(batch.id))) await this.finalize(batch);
      else if (batch.status === 'in_progress' && batch.expiresAt > now) {
        await this.deps.delegation?.plan(batch).catch((error: unknown) => this.deps.logger.warn({ err: error, batch: batch.id }, 'batch delegation not planned'));
        runnable.push(batch);
      }
    }
    this.runnable = runnable;
    this.deps.delegation?.keepOnly(new Set(runnable.map((batch) => batch.id)));
    this.deps.delegation?.kick();
  }

  private async finalize(batch: BatchRecord): Promise<void> {
    const { batches, lines, files, media } = this.deps;
    const done = await finalizeBatch({ batches, lines, files, media, staleMs: this.options.leaseMs }, batch);
    if (done) this.deps.logger.info({ batch: done.id, status: done.status }, 'batch finished');
  }

  private async renew(now: number): Promise<void> {
    this.lastRenew = now;
    if (this.inFlight.size === 0) return;
    await this.deps.lines.renew(
      this.deps.owner,
      [...this.inFlight.values()].map((entry) => entry.line),
      now + this.options.leaseMs,
    );
  }

  /** Claims lines until `concurrency` are in flight or the pace has no more room, from the runnable batches in turn. */
  private async fill(): Promise<void> {
    if (this.filling) return;
    this.filling = true;
    try {
      for (let tried = 0; tried < this.runnable.length; tried++) {
        const free = Math.min(this.options.concurrency - this.inFlight.size, this.deps.pace.room(this.inFlight.size, Date.now()));
        if (free <= 0 || this.stopping) return;
        const batch = this.runnable[this.turn++ % this.runnable.length];
        const claimed = await this.deps.lines.claim(batch.id, this.deps.owner, this.options.leaseMs, free);
        this.deps.pace.started(claimed.length, Date.now());
        for (const line of claimed) this.launch(batch, line);
      }
    } finally {
      this.filling = false;
    }
  }

  private launch(batch: BatchRecord, line: BatchLine): void {
    const id = `${line.batchId}:${line.index}`;
    const done = this.run(batch, line)
      .catch((error: unknown) => this.deps.logger.warn({ err: error, batch: batch.id, line: line.index }, 'batch line not recorded'))
      .finally(() => {
        this.inFlight.delete(id);
        if (!this.stopping) void this.fill().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'batch lines not claimed'));
      });
    this.inFlight.set(id, { line, done });
  }

  private async run(batch: BatchRecord, line: BatchLine): Promise<void> {
    const outcome = await this.deps.runLine(batch, line);
    if (outcome.retryAfterMs !== undefined && line.attempt < MAX_ATTEMPTS && !this.stopping) {
      await this.deps.lines.retryAt(line, this.deps.owner, Date.now() + outcome.retryAfterMs);
      return;
    }
    // A line cut short by this instance's shutdown is not answered: another instance runs it again.
    if (this.stopping && outcome.status !== 'succeeded') return;
    const { retryAfterMs: _later, ...answer } = outcome;
    await this.deps.lines.answer(line, this.deps.owner, answer);
  }
}

function ended(status: 'cancelled' | 'expired', code: string, message: string): LineAnswer {
  return { status, requestId: null, response: null, error: { code, message } };
}
