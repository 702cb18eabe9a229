/**
 * Cancelling a batch: `cancelling` at once (compare-and-set), the lines no
 * instance is running ended as cancelled in the same breath, and the batch
 * `cancelled` once the lines in flight have their answers (the runner
 * finalizes it, finalize.ts). Lines never started are never run.
 */
import type { BatchLineRepository } from './lines.js';
import { isFinalBatch, type BatchRepository } from './repository.js';
import type { BatchRecord } from './schema.js';

const CANCELLED = { status: 'cancelled' as const, requestId: null, response: null, error: { code: 'batch_cancelled', message: 'This request was not executed: the batch was cancelled.' } };

/** The batch as cancelling (or as it was when already so), or undefined when it had ended. */
export async function cancelBatch(batches: BatchRepository, lines: BatchLineRepository, batch: BatchRecord): Promise<BatchRecord | undefined> {
  for (let current: BatchRecord | undefined = batch; current; current = await batches.get(batch.id)) {
    if (isFinalBatch(current.status)) return undefined;
    if (current.status === 'cancelling' || current.status === 'finalizing' || current.cancellingAt !== null) return current;
    const now = Date.now();
    const changed = await batches.transition(current, { status: 'cancelling', cancelling_at: now }, now);
    if (changed) {
      await lines.endIdle(batch.id, CANCELLED, now);
      return changed;
    }
  }
  return undefined;
}
