/**
 * A batch's delegation plan, made once when an instance first sees the
 * batch running: its lines never tried are read page by page, grouped
 * (grouping.ts), and each group becomes a delegation row that then takes
 * its lines. A line the local runner claimed meanwhile is not taken (the
 * hand-over is a compare-and-set on the line), and a delegation left with
 * no line ends at its first step.
 */
import type { DelegationTarget } from './grouping.js';
import { groupForDelegation, MAX_LINES_PER_UPSTREAM_BATCH } from './grouping.js';
import type { DelegationRepository } from './repository.js';
import type { DelegatedLine } from './schema.js';

const PAGE = 1_000;

/** Hands the batch's delegable lines to new delegations; how many lines were handed over. */
export async function planDelegations(repo: DelegationRepository, batchId: string, routeOf: (model: string) => DelegationTarget | undefined, now = Date.now()): Promise<number> {
  const lines: DelegatedLine[] = [];
  for (let after = -1; ; ) {
    const page = await repo.undelegated(batchId, after, PAGE, now);
    if (page.length === 0) break;
    // Only the model and stream flag are kept: a group needs no body.
    for (const line of page) lines.push({ index: line.index, customId: line.customId, body: { model: line.body.model, stream: line.body.stream } });
    after = page[page.length - 1].index;
  }
  let handed = 0;
  for (const group of groupForDelegation(lines, routeOf, MAX_LINES_PER_UPSTREAM_BATCH)) {
    const id = await repo.create(batchId, group.channelId, group.upstreamModel, now);
    handed += await repo.assign(id, batchId, group.indexes, now);
  }
  return handed;
}
