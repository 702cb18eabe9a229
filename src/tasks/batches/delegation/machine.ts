/**
 * One step of a delegation, run by the instance holding its lease:
 * - preparing: when a create was sent before and its answer lost (the
 *   instance died, or the upstream failed after making it), the batch it
 *   made is adopted if exactly one upstream batch can be it (client.find;
 *   none held by another delegation); else the requests (each body with the
 *   upstream model, the line's index as its custom id) go up, as a file the
 *   create names (OpenAI) or inline in the create (Anthropic), the create's
 *   start recorded before it is sent;
 * - submitted: the upstream batch is looked at, at a backing-off interval,
 *   and cancelled when our batch is cancelled or expired; once it ended,
 * - collecting: its answers are written and billed (collect.ts), and the
 *   lines it did not answer go back to the local runner (or end, when our
 *   batch was cancelled or expired).
 * An upstream that refuses (4xx) hands the lines back at once; one that does
 * not answer is tried again with backoff until our batch expires.
 */
import { GatewayError } from '../../../core/errors.js';
import type { BatchRecord } from '../schema.js';
import { collectResults } from './collect.js';
import type { UpstreamBatch, UpstreamBatchClient, UpstreamRequest } from './host.js';
import type { Delegation, DelegationPatch } from './schema.js';
import { batchEnded as ended, endAnswer, type StepDeps } from './step.js';

const PAGE = 500;

/** Runs the delegation's current step; the change to write (the lease released with it). */
export async function stepDelegation(deps: StepDeps, delegation: Delegation, now = Date.now()): Promise<DelegationPatch> {
  const batch = await deps.batches.get(delegation.batchId);
  if (!batch) return { state: 'abandoned', error: 'the batch no longer exists' };
  try {
    if (delegation.state === 'preparing') return await prepare(deps, delegation, batch, now);
    if (delegation.state === 'submitted') return await poll(deps, delegation, batch, now);
    return await collectResults(deps, delegation, batch);
  } catch (error) {
    return failed(deps, delegation, batch, error, Date.now());
  }
}

async function prepare(deps: StepDeps, delegation: Delegation, batch: BatchRecord, now: number): Promise<DelegationPatch> {
  const client = deps.host.client(delegation);
  const adopted = await madeBefore(deps, client, delegation, batch);
  if (adopted) {
    deps.logger.info({ batch: batch.id, delegation: delegation.id, upstreamBatch: adopted.id }, 'upstream batch adopted');
    return submitted(adopted, now, deps.pollMs);
  }
  const end = ended(batch, now);
  if (end) {
    await deps.repo.endLines(delegation.id, batch.id, endAnswer(end), now);
    return { state: 'done' };
  }
  const first = await deps.repo.lines(delegation.id, batch.id, -1, 1);
  if (first.length === 0) return { state: 'done' };
  let current = delegation;
  if (client.upload && current.upstreamFileId === null) {
    const fileId = await client.upload(current, batch.endpoint, upstreamRequests(deps, current, batch));
    current = await saved(deps, current, { upstream_file_id: fileId });
  }
  // Recorded before the create is sent: a lost answer is looked for from here (madeBefore).
  current = await saved(deps, current, { create_started_at: Date.now() });
  const input = current.upstreamFileId !== null ? { fileId: current.upstreamFileId } : { requests: upstreamRequests(deps, current, batch) };
  const created = await client.create(current, batch.endpoint, input);
  deps.logger.info({ batch: batch.id, delegation: delegation.id, upstreamBatch: created.id }, 'upstream batch created');
  return submitted(created, now, deps.pollMs);
}

/** The upstream batch an earlier create made, when exactly one can be it and no other delegation holds it. */
async function madeBefore(deps: StepDeps, client: UpstreamBatchClient, delegation: Delegation, batch: BatchRecord): Promise<UpstreamBatch | undefined> {
  // A file uploaded but no create recorded: a group stepped before create_started_at existed may have sent one.
  if (delegation.createStartedAt === null && delegation.upstreamFileId === null) return undefined;
  const lines = await deps.repo.pendingCount(delegation.id, batch.id);
  const found = await client.find(delegation, { startedAt: delegation.createStartedAt ?? 0, lines });
  const held = await deps.repo.heldUpstreamIds(
    delegation.channelId,
    found.map((upstream) => upstream.id),
  );
  const free = found.filter((upstream) => !held.has(upstream.id));
  if (free.length > 1)
    deps.logger.warn({ batch: batch.id, delegation: delegation.id, candidates: free.map((upstream) => upstream.id) }, 'several upstream batches could be the lost create: creating anew');
  return free.length === 1 ? free[0] : undefined;
}

async function saved(deps: StepDeps, delegation: Delegation, patch: DelegationPatch): Promise<Delegation> {
  const row = await deps.repo.update(delegation, deps.owner, patch, false);
  if (!row) throw new GatewayError('unavailable', 'the delegation lease was lost', { retryable: true });
  return row;
}

function submitted(upstream: UpstreamBatch, now: number, pollMs: number): DelegationPatch {
  return { state: 'submitted', upstream_batch_id: upstream.id, upstream_status: upstream.status, attempt: 0, polls: 0, next_check_at: now + pollMs, error: null };
}

/** The upstream requests, page by page: each line's body with the upstream model, its index as `customId`. */
async function* upstreamRequests(deps: StepDeps, delegation: Delegation, batch: BatchRecord): AsyncGenerator<UpstreamRequest[]> {
  for (let after = -1; ; ) {
    const page = await deps.repo.lines(delegation.id, batch.id, after, PAGE);
    if (page.length === 0) return;
    yield page.map((line) => ({ customId: String(line.index), body: { ...line.body, model: delegation.upstreamModel } }));
    after = page[page.length - 1].index;
  }
}

async function poll(deps: StepDeps, delegation: Delegation, batch: BatchRecord, now: number): Promise<DelegationPatch> {
  const client = deps.host.client(delegation);
  let upstream = await client.get(delegation);
  if (upstream.ended) {
    const collecting: Delegation = { ...delegation, state: 'collecting', upstreamStatus: upstream.status, outputFileId: upstream.outputFileId, errorFileId: upstream.errorFileId };
    const saved = await deps.repo.update(
      delegation,
      deps.owner,
      { state: 'collecting', upstream_status: upstream.status, output_file_id: upstream.outputFileId, error_file_id: upstream.errorFileId, attempt: 0 },
      false,
    );
    if (!saved) throw new GatewayError('unavailable', 'the delegation lease was lost', { retryable: true });
    return collectResults(deps, collecting, batch);
  }
  if (ended(batch, now) && !upstream.cancelling) upstream = await client.cancel(delegation);
  const wait = Math.min(deps.pollMs * 2 ** delegation.polls, deps.pollMs * 6);
  return { upstream_status: upstream.status, polls: delegation.polls + 1, attempt: 0, next_check_at: now + wait };
}

/** The upstream refused (4xx): the lines go back to the local runner. Unreachable: tried again later, until our batch expires. */
async function failed(deps: StepDeps, delegation: Delegation, batch: BatchRecord, error: unknown, now: number): Promise<DelegationPatch> {
  const gateway = error instanceof GatewayError ? error : undefined;
  const refused = gateway !== undefined && gateway.status >= 400 && gateway.status < 500 && ![408, 409, 429].includes(gateway.status);
  // The message of an upstream error has its credentials masked (upstreams/error-answer.ts); anything else is named by kind only.
  const reason = gateway ? gateway.message : 'unexpected error';
  const context = { batch: batch.id, delegation: delegation.id, upstreamBatch: delegation.upstreamBatchId, state: delegation.state, reason };
  if (!gateway) deps.logger.error({ ...context, err: error }, 'upstream batch step failed');
  if (refused) {
    const back = await deps.repo.handBack(delegation.id, batch.id, now);
    deps.logger.warn({ ...context, lines: back }, 'the upstream refused the batch: its lines run on the gateway');
    return { state: 'abandoned', error: reason };
  }
  if (batch.expiresAt <= now) {
    const end = ended(batch, now) ?? 'expired';
    const lines = await deps.repo.endLines(delegation.id, batch.id, endAnswer(end), now);
    deps.logger.warn({ ...context, lines }, 'the upstream stayed unreachable until the batch expired');
    return { state: 'abandoned', error: reason };
  }
  const wait = Math.min(deps.pollMs * 2 ** delegation.attempt, deps.pollMs * 6);
  deps.logger.warn({ ...context, retryInMs: wait }, 'upstream batch API unreachable; trying again');
  return { attempt: delegation.attempt + 1, next_check_at: now + wait, error: reason };
}
