/**
 * What a delegation leaves on the upstream account once it ended: on
 * OpenAI the JSONL the gateway uploaded and the result files it has read,
 * on Anthropic the ended batch itself (its results with it). Their answers
 * now live in our batch's own lines. Each is deleted once; what stays costs
 * the operator storage, never a wrong answer, so a failure is logged with
 * the id and not retried.
 */
import type { Logger } from 'pino';
import { GatewayError } from '../../../core/errors.js';
import type { UpstreamBatchClient } from './host.js';
import type { Delegation } from './schema.js';

export async function removeUpstreamLeftovers(client: UpstreamBatchClient, logger: Logger, delegation: Delegation): Promise<void> {
  const context = { delegation: delegation.id, batch: delegation.batchId };
  if (client.removeFile) {
    const files = new Set([delegation.upstreamFileId, delegation.outputFileId, delegation.errorFileId]);
    for (const fileId of files) {
      if (fileId === null) continue;
      const reason = await failure(() => client.removeFile!(delegation, fileId));
      if (reason !== undefined) logger.warn({ ...context, file: fileId, reason }, 'upstream batch file left undeleted');
    }
  }
  // Only a batch that ended can be deleted; one left running (the upstream unreachable until our batch expired) stays.
  if (client.removeBatch && delegation.upstreamBatchId !== null && delegation.state === 'done') {
    const reason = await failure(() => client.removeBatch!(delegation));
    if (reason !== undefined) logger.warn({ ...context, upstreamBatch: delegation.upstreamBatchId, reason }, 'upstream batch left undeleted');
  }
}

/** Why the call failed, or undefined when it did not. */
async function failure(call: () => Promise<void>): Promise<string | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    // The message of an upstream error has its credentials masked (upstreams/error-answer.ts).
    return error instanceof GatewayError ? error.message : 'unexpected error';
  }
}
