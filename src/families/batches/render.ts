/** OpenAI's batch object and list page, from the stored batch (times in seconds) and its line counts. */
import type { BatchRecord, LineCounts } from '../../tasks/batches/schema.js';

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(ms / 1000));

export function renderBatch(batch: BatchRecord, counts: LineCounts) {
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors: batch.errors ? { object: 'list', data: batch.errors } : null,
    input_file_id: batch.inputFileId,
    completion_window: batch.completionWindow,
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: seconds(batch.createdAt),
    in_progress_at: seconds(batch.inProgressAt),
    expires_at: seconds(batch.expiresAt),
    finalizing_at: seconds(batch.finalizingAt),
    completed_at: seconds(batch.completedAt),
    failed_at: seconds(batch.failedAt),
    expired_at: seconds(batch.expiredAt),
    cancelling_at: seconds(batch.cancellingAt),
    cancelled_at: seconds(batch.cancelledAt),
    request_counts: { total: batch.total, completed: counts.succeeded, failed: counts.failed + counts.expired + counts.cancelled },
    metadata: batch.metadata,
    ...(batch.usage ? { usage: batch.usage } : {}),
  };
}
