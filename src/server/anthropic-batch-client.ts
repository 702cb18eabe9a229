/**
 * A delegation's calls to Anthropic's Message Batches API
 * (upstreams/anthropic/message-batches-api.ts), in the delegation machine's
 * terms (tasks/batches/delegation/host.ts): the requests sent inline in the
 * create, no file, each `custom_id` the delegation's id and the line's
 * index (so the results of a batch adopted by mistake answer none of our
 * lines); results turned into line answers (succeeded: the
 * message, 200; errored: the error body, at the status its type means;
 * canceled and expired: unanswered); the ended batch deleted once collected,
 * when its results name the delegation.
 *
 * A lost create (5xx or the connection failing after it was sent) cannot be
 * recognised by metadata, which this API does not keep: the candidates are
 * the batches on the first page of the list (newest first) made since the
 * attempt started, less a minute for the two clocks, with as many requests
 * as the delegation has lines. The machine adopts one only when it is the
 * only candidate no other delegation holds.
 */
import { GatewayError } from '../core/errors.js';
import type { UpstreamBatch, UpstreamBatchClient, UpstreamResult } from '../tasks/batches/delegation/host.js';
import type { Delegation } from '../tasks/batches/delegation/schema.js';
import {
  cancelMessageBatch,
  createMessageBatch,
  deleteMessageBatch,
  getMessageBatch,
  type MessageBatchObject,
  type MessageBatchesConnection,
  messageBatchResults,
  newestMessageBatches,
} from '../upstreams/anthropic/message-batches-api.js';

/** How far the upstream's clock may be behind ours when a lost create is looked for. */
export const CLOCK_SLACK_MS = 60_000;

/** The status each error type of the Messages API is answered with. */
const STATUS_OF_ERROR: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

export function anthropicBatchClient(connectionOf: (delegation: Delegation) => MessageBatchesConnection): UpstreamBatchClient {
  return {
    create: async (delegation, _endpoint, input) => {
      if (!('requests' in input)) throw new GatewayError('internal', 'a Message Batch is created with its requests inline');
      const requests = (async function* () {
        for await (const page of input.requests) yield page.map((request) => ({ custom_id: `${delegation.id}-${request.customId}`, params: request.body }));
      })();
      return upstreamBatch(await createMessageBatch(connectionOf(delegation), requests));
    },
    find: async (delegation, attempt) => {
      const newest = await newestMessageBatches(connectionOf(delegation));
      return newest.filter((batch) => Date.parse(batch?.created_at ?? '') >= attempt.startedAt - CLOCK_SLACK_MS && requestTotal(batch) === attempt.lines).map(upstreamBatch);
    },
    get: async (delegation) => upstreamBatch(await getMessageBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    cancel: async (delegation) => upstreamBatch(await cancelMessageBatch(connectionOf(delegation), delegation.upstreamBatchId!)),
    results: async function* (delegation) {
      const ours = `${delegation.id}-`;
      for await (const line of messageBatchResults(connectionOf(delegation), delegation.upstreamBatchId!)) {
        const customId = String(line.custom_id);
        if (customId.startsWith(ours)) yield resultOf(customId.slice(ours.length), line);
      }
    },
    removeBatch: async (delegation) => {
      // A batch adopted by mistake is another client's: its first result line says whose it is.
      for await (const line of messageBatchResults(connectionOf(delegation), delegation.upstreamBatchId!)) {
        if (!String(line.custom_id).startsWith(`${delegation.id}-`)) throw new GatewayError('invalid_request', 'its results name no line of this delegation: another client made it');
        break;
      }
      await deleteMessageBatch(connectionOf(delegation), delegation.upstreamBatchId!);
    },
  };
}

function requestTotal(batch: MessageBatchObject): number {
  return Object.values(batch?.request_counts ?? {}).reduce<number>((sum, count) => sum + (typeof count === 'number' ? count : 0), 0);
}

function resultOf(customId: string, line: Record<string, unknown>): UpstreamResult {
  const result = line.result as { type?: unknown; message?: unknown; error?: unknown } | null | undefined;
  if (result?.type === 'succeeded') return { customId, response: { statusCode: 200, body: result.message ?? null } };
  if (result?.type === 'errored') {
    const type = (result.error as { error?: { type?: unknown } } | null | undefined)?.error?.type;
    return { customId, response: { statusCode: (typeof type === 'string' && STATUS_OF_ERROR[type]) || 500, body: result.error ?? null } };
  }
  return { customId, response: null };
}

function upstreamBatch(batch: MessageBatchObject): UpstreamBatch {
  if (typeof batch?.id !== 'string' || typeof batch.processing_status !== 'string') throw new GatewayError('upstream_error', 'the upstream answered with no message batch object', { retryable: true });
  const status = batch.processing_status;
  return { id: batch.id, status, ended: status === 'ended', cancelling: status === 'canceling', outputFileId: null, errorFileId: null };
}
