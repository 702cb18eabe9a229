/**
 * Anthropic's Message Batches API as the gateway calls it on an anthropic
 * channel with `batchApi`: a batch created with its requests inline (the
 * body streamed as it is written), listed newest first (to find one whose
 * create answer was lost), read, cancelled, its results read line by line
 * from `<base>/v1/messages/batches/{id}/results` (built from the channel's
 * base, so the key never goes to a host an answer names), and deleted once
 * ended. The headers are the channel's own (endpoint.ts); the key is masked
 * out of every error text; a non-2xx answer is the GatewayError it
 * describes (4xx: refused; 5xx, timeouts, connection failures: retryable).
 */
import { Readable } from 'node:stream';
import { CallAbort } from '../../core/call-signal.js';
import { joinUrl } from '../http.js';
import { jsonlLines } from '../jsonl-download.js';
import { requestJsonOk } from '../whole-answer.js';

export interface MessageBatchesConnection {
  /** The channel's base URL (the origin, e.g. https://api.anthropic.com). */
  baseUrl: string;
  /** The channel's headers, the key among them. */
  headers: Record<string, string>;
  apiKey: string;
  timeoutMs: number;
}

/** Anthropic's Message Batch object, the fields the gateway reads. */
export interface MessageBatchObject {
  id: string;
  processing_status: 'in_progress' | 'canceling' | 'ended' | string;
  request_counts?: Partial<Record<'processing' | 'succeeded' | 'errored' | 'canceled' | 'expired', number>>;
  created_at?: string;
}

/** One request of a batch: `custom_id` and the Messages request body. */
export interface MessageBatchRequest {
  custom_id: string;
  params: Record<string, unknown>;
}

const MAX_JSON_BYTES = 4 * 1024 * 1024;
/** The largest page the list gives: a batch just made is on the first (newest first). */
const LIST_LIMIT = 100;

const path = (id: string, tail = '') => `/v1/messages/batches/${encodeURIComponent(id)}${tail}`;

function json<T>(connection: MessageBatchesConnection, method: 'GET' | 'POST' | 'DELETE', to: string, body?: string | Readable): Promise<T> {
  return requestJsonOk<T>(
    {
      url: joinUrl(connection.baseUrl, to),
      method,
      headers: connection.headers,
      body,
      signal: new CallAbort(),
      timeoutMs: connection.timeoutMs,
      bodyTimeoutMs: connection.timeoutMs,
      secrets: [connection.apiKey],
    },
    MAX_JSON_BYTES,
  );
}

/** Creates a batch, `{"requests": [...]}` written page by page as the pages arrive. */
export function createMessageBatch(connection: MessageBatchesConnection, pages: AsyncIterable<readonly MessageBatchRequest[]>): Promise<MessageBatchObject> {
  async function* body(): AsyncGenerator<Buffer> {
    yield Buffer.from('{"requests":[');
    let first = true;
    for await (const page of pages) {
      let text = '';
      for (const request of page) {
        text += `${first ? '' : ','}${JSON.stringify(request)}`;
        first = false;
      }
      yield Buffer.from(text);
    }
    yield Buffer.from(']}');
  }
  return json(connection, 'POST', '/v1/messages/batches', Readable.from(body()));
}

/** The newest batches of the account (the first page of the list). */
export async function newestMessageBatches(connection: MessageBatchesConnection): Promise<MessageBatchObject[]> {
  const list = await json<{ data?: unknown }>(connection, 'GET', `/v1/messages/batches?limit=${LIST_LIMIT}`);
  return Array.isArray(list.data) ? (list.data as MessageBatchObject[]) : [];
}

export const getMessageBatch = (connection: MessageBatchesConnection, id: string): Promise<MessageBatchObject> => json(connection, 'GET', path(id));

export const cancelMessageBatch = (connection: MessageBatchesConnection, id: string): Promise<MessageBatchObject> => json(connection, 'POST', path(id, '/cancel'));

/** Deletes an ended batch (its results with it). */
export async function deleteMessageBatch(connection: MessageBatchesConnection, id: string): Promise<void> {
  await json(connection, 'DELETE', path(id));
}

/** The batch's result lines (`{custom_id, result}`), read as they arrive. */
export function messageBatchResults(connection: MessageBatchesConnection, id: string): AsyncGenerator<Record<string, unknown>> {
  return jsonlLines({ url: joinUrl(connection.baseUrl, path(id, '/results')), headers: connection.headers, timeoutMs: connection.timeoutMs, secrets: [connection.apiKey] });
}
