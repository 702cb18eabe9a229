/**
 * A delegation's calls to OpenAI's Files and Batch APIs
 * (upstreams/openai-batch-api.ts), in the delegation machine's terms
 * (tasks/batches/delegation/host.ts): the requests uploaded as a JSONL file
 * (`{custom_id, method, url, body}`) the create names, a lost create found by
 * its metadata, the output then the error file read as results, the files
 * deleted once the delegation ended.
 */
import { GatewayError } from '../core/errors.js';
import type { UpstreamBatch, UpstreamBatchClient, UpstreamRequests } from '../tasks/batches/delegation/host.js';
import type { Delegation } from '../tasks/batches/delegation/schema.js';
import { type BatchApiConnection, cancelBatch, createBatch, deleteFile, fileLines, findBatch, getBatch, type OpenAIBatchObject, uploadBatchFile } from '../upstreams/openai-batch-api.js';

const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'expired', 'cancelled', 'failed']);

export function openAiBatchClient(connectionOf: (delegation: Delegation) => BatchApiConnection): UpstreamBatchClient {
  return {
    upload: (delegation, endpoint, requests) => uploadBatchFile(connectionOf(delegation), jsonl(endpoint, requests), `${delegation.id}.jsonl`),
    create: async (delegation, endpoint, input) => {
      if (!('fileId' in input)) throw new GatewayError('internal', 'an OpenAI batch is created from an uploaded file');
      return upstreamBatch(await createBatch(connectionOf(delegation), input.fileId, endpoint, delegation.id));
    },
    find: async (delegation) => {
      const found = await findBatch(connectionOf(delegation), delegation.id);
      return found ? [upstreamBatch(found)] : [];
    },
    get: async (delegation) => upstreamBatch(await getBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    cancel: async (delegation) => upstreamBatch(await cancelBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    results: async function* (delegation) {
      for (const fileId of [delegation.outputFileId, delegation.errorFileId]) {
        if (fileId === null) continue;
        for await (const line of fileLines(connectionOf(delegation), fileId)) {
          const response = line.response as { status_code?: unknown; body?: unknown } | null | undefined;
          const statusCode = typeof response?.status_code === 'number' ? response.status_code : undefined;
          yield { customId: String(line.custom_id), response: statusCode === undefined ? null : { statusCode, body: response?.body ?? null } };
        }
      }
    },
    removeFile: (delegation, fileId) => deleteFile(connectionOf(delegation), fileId),
  };
}

async function* jsonl(endpoint: string, requests: UpstreamRequests): AsyncGenerator<string> {
  for await (const page of requests) {
    let text = '';
    for (const request of page) text += `${JSON.stringify({ custom_id: request.customId, method: 'POST', url: endpoint, body: request.body })}\n`;
    yield text;
  }
}

function upstreamBatch(batch: OpenAIBatchObject): UpstreamBatch {
  if (typeof batch?.id !== 'string' || typeof batch.status !== 'string') throw new GatewayError('upstream_error', 'the upstream answered with no batch object', { retryable: true });
  return {
    id: batch.id,
    status: batch.status,
    ended: FINAL_STATUSES.has(batch.status),
    cancelling: batch.status === 'cancelling',
    outputFileId: batch.output_file_id ?? null,
    errorFileId: batch.error_file_id ?? null,
  };
}
