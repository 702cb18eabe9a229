/**
 * The delegation side of an instance's batch loop (runner.ts calls it from
 * its care pass): a running batch (OpenAI's or a Message Batch) is planned once per instance
 * (plan.ts; before the local runner claims its lines on that pass), and the
 * delegations due are stepped (machine.ts), each under a lease renewed while
 * its step runs, so two instances never act on one delegation. A
 * delegation that ended deletes what it left upstream (tidy.ts). A pass runs
 * beside the line runner, never holding up its ticks.
 */
import type { Logger } from 'pino';
import type { BatchRepository } from '../repository.js';
import type { BatchRecord } from '../schema.js';
import type { DelegationHost } from './host.js';
import { stepDelegation } from './machine.js';
import { planDelegations } from './plan.js';
import type { DelegationRepository } from './repository.js';
import { removeUpstreamLeftovers } from './tidy.js';

export interface DelegationLoopOptions {
  leaseMs: number;
  pollMs: number;
  owner: string;
}

const ENDED: ReadonlySet<string> = new Set(['done', 'abandoned']);

/** Delegations stepped at once by one instance. */
const AT_ONCE = 4;

export class DelegationLoop {
  private readonly planned = new Set<string>();
  private passing?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly options: DelegationLoopOptions,
    private readonly deps: { repo: DelegationRepository; batches: BatchRepository; host: DelegationHost; logger: Logger },
  ) {}

  /** Hands the batch's lines its first channels serve through a batch API to delegations, once per batch on this instance. */
  async plan(batch: BatchRecord): Promise<void> {
    if (this.stopping || this.planned.has(batch.id) || !this.deps.host.delegates(batch.endpoint)) return;
    this.planned.add(batch.id);
    const routeOf = await this.deps.host.routeOf(batch);
    if (!routeOf) return;
    const handed = await planDelegations(this.deps.repo, batch.id, routeOf);
    if (handed > 0) this.deps.logger.info({ batch: batch.id, lines: handed }, 'batch lines handed to upstream batch APIs');
  }

  /** Forgets batches that are no longer running (the set stays as small as the active ones). */
  keepOnly(active: ReadonlySet<string>): void {
    for (const id of this.planned) if (!active.has(id)) this.planned.delete(id);
  }

  /** Starts a pass over the due delegations unless one is running. */
  kick(): void {
    if (this.stopping || this.passing) return;
    this.passing = this.pass()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'upstream batch pass failed'))
      .finally(() => (this.passing = undefined));
  }

  /** Waits for the pass in flight (its steps release their leases), and hands back the leases of any left. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.passing;
    await this.deps.repo.releaseAll(this.options.owner).catch((error: unknown) => this.deps.logger.warn({ err: error }, 'delegation leases not released'));
  }

  private async pass(): Promise<void> {
    const { repo } = this.deps;
    const { owner, leaseMs, pollMs } = this.options;
    const due = await repo.claimDue(owner, leaseMs, AT_ONCE);
    if (due.length === 0) return;
    const renewal = setInterval(
      () =>
        void repo
          .renew(
            owner,
            due.map((d) => d.id),
            Date.now() + leaseMs,
          )
          .catch(() => {}),
      Math.max(50, leaseMs / 3),
    );
    renewal.unref();
    try {
      await Promise.all(
        due.map(async (delegation) => {
          const patch = await stepDelegation({ ...this.deps, owner, pollMs }, delegation);
          const saved = await repo.update(delegation, owner, patch, true);
          // Only once the end is recorded: a step run again must still find its files.
          if (saved && ENDED.has(saved.state)) await removeUpstreamLeftovers(this.deps.host.client(saved), this.deps.logger, saved);
        }),
      );
    } finally {
      clearInterval(renewal);
    }
  }
}
