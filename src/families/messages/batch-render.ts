/**
 * Anthropic's Message Batch object, list page and result lines, from the
 * batch core's records (src/tasks/batches/): statuses mapped to
 * `processing_status` (in_progress, canceling, ended), times as RFC 3339.
 */
import type { AnsweredLine, BatchRecord, LineCounts } from '../../tasks/batches/schema.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function processingStatus(batch: BatchRecord): 'in_progress' | 'canceling' | 'ended' {
  if (['failed', 'completed', 'expired', 'cancelled'].includes(batch.status)) return 'ended';
  return batch.cancellingAt !== null ? 'canceling' : 'in_progress';
}

export function renderMessageBatch(batch: BatchRecord, counts: LineCounts, origin: string) {
  const status = processingStatus(batch);
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: status,
    request_counts: { processing: counts.pending, succeeded: counts.succeeded, errored: counts.failed, canceled: counts.cancelled, expired: counts.expired },
    ended_at: iso(batch.completedAt ?? batch.cancelledAt ?? batch.expiredAt ?? batch.failedAt),
    created_at: iso(batch.createdAt),
    expires_at: iso(batch.expiresAt),
    cancel_initiated_at: iso(batch.cancellingAt),
    archived_at: null,
    results_url: status === 'ended' ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
  };
}

/** One line of the results file: `{custom_id, result}`, the result succeeded (the message), errored (the error body), canceled or expired. */
export function renderResult(line: AnsweredLine) {
  if (line.status === 'succeeded') return { custom_id: line.customId, result: { type: 'succeeded', message: line.response?.body } };
  if (line.status === 'cancelled') return { custom_id: line.customId, result: { type: 'canceled' } };
  if (line.status === 'expired') return { custom_id: line.customId, result: { type: 'expired' } };
  const body = line.response?.body as { type?: unknown; error?: unknown } | undefined;
  const error = body?.type === 'error' ? body : { type: 'error', error: { type: 'api_error', message: line.error?.message ?? 'the request failed' } };
  return { custom_id: line.customId, result: { type: 'errored', error } };
}
