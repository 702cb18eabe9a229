/**
 * What a delegation leaves on the upstream account once it ended: the JSONL
 * the gateway uploaded, and the result files it has read (their answers now
 * live in our batch's own output and error files). Each is deleted once; a
 * file that stays costs the operator storage, never a wrong answer, so a
 * failure is logged with the file's id and not retried.
 */
import type { Logger } from 'pino';
import { GatewayError } from '../../../core/errors.js';
import type { UpstreamBatchClient } from './host.js';
import type { Delegation } from './schema.js';

export async function removeUpstreamFiles(client: UpstreamBatchClient, logger: Logger, delegation: Delegation): Promise<void> {
  const files = new Set([delegation.upstreamFileId, delegation.outputFileId, delegation.errorFileId]);
  for (const fileId of files) {
    if (fileId === null) continue;
    try {
      await client.remove(delegation, fileId);
    } catch (error) {
      // The message of an upstream error has its credentials masked (upstreams/error-answer.ts).
      const reason = error instanceof GatewayError ? error.message : 'unexpected error';
      logger.warn({ delegation: delegation.id, batch: delegation.batchId, file: fileId, reason }, 'upstream batch file left undeleted');
    }
  }
}
