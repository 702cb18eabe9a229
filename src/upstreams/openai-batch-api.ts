/**
 * OpenAI's Files and Batch APIs as the gateway calls them on a channel whose
 * server has them (openai-chat and openai-responses with `batchApi`): a
 * `batch` file uploaded as multipart form data, streamed as it is written;
 * batches created with the gateway's metadata, listed (to find one the
 * gateway made before its id was recorded), read and cancelled; a result
 * file read line by line as it arrives; files deleted once a delegation
 * ended. The credential is a Bearer header,
 * masked out of every error text; a non-2xx answer is the GatewayError it
 * describes (4xx: refused; 5xx, timeouts, connection failures: retryable).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CallAbort } from '../core/call-signal.js';
import { GatewayError } from '../core/errors.js';
import { joinUrl } from './http.js';
import { jsonlLines } from './jsonl-download.js';
import { requestJsonOk } from './whole-answer.js';

export interface BatchApiConnection {
  /** The channel's base URL, with `/v1`. */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/** OpenAI's batch object, the fields the gateway reads. */
export interface OpenAIBatchObject {
  id: string;
  status: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  metadata?: Record<string, string> | null;
}

/** The metadata key naming the gateway's delegation an upstream batch serves. */
export const DELEGATION_METADATA_KEY = 'switchyard_delegation';
/** Pages of the batch list looked through for one made before (newest first: a batch just made is on the first). */
const LIST_PAGES = 3;
const MAX_JSON_BYTES = 4 * 1024 * 1024;

const headers = (connection: BatchApiConnection, json: boolean): Record<string, string> => ({
  ...(json ? { 'content-type': 'application/json' } : {}),
  ...(connection.apiKey ? { authorization: `Bearer ${connection.apiKey}` } : {}),
});

function json<T>(connection: BatchApiConnection, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return requestJsonOk<T>(
    {
      url: joinUrl(connection.baseUrl, path),
      method,
      headers: headers(connection, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: new CallAbort(),
      timeoutMs: connection.timeoutMs,
      bodyTimeoutMs: connection.timeoutMs,
      secrets: [connection.apiKey],
    },
    MAX_JSON_BYTES,
  );
}

/** Uploads `jsonl` as a `batch` file (multipart, streamed); the file's id. */
export async function uploadBatchFile(connection: BatchApiConnection, jsonl: AsyncIterable<string>, filename: string): Promise<string> {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  async function* form(): AsyncGenerator<Buffer> {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n`);
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/jsonl\r\n\r\n`);
    for await (const text of jsonl) yield Buffer.from(text);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const answer = await requestJsonOk<{ id?: unknown }>(
    {
      url: joinUrl(connection.baseUrl, '/files'),
      method: 'POST',
      headers: { ...headers(connection, false), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Readable.from(form()),
      signal: new CallAbort(),
      timeoutMs: connection.timeoutMs,
      bodyTimeoutMs: connection.timeoutMs,
      secrets: [connection.apiKey],
    },
    MAX_JSON_BYTES,
  );
  if (typeof answer.id !== 'string') throw new GatewayError('upstream_error', 'the upstream answered a file upload without a file id', { retryable: true });
  return answer.id;
}

export function createBatch(connection: BatchApiConnection, fileId: string, endpoint: string, delegationId: string): Promise<OpenAIBatchObject> {
  return json(connection, 'POST', '/batches', { input_file_id: fileId, endpoint, completion_window: '24h', metadata: { [DELEGATION_METADATA_KEY]: delegationId } });
}

/** The batch the gateway made for the delegation before, found by its metadata in the first pages of the list. */
export async function findBatch(connection: BatchApiConnection, delegationId: string): Promise<OpenAIBatchObject | undefined> {
  let after: string | undefined;
  for (let page = 0; page < LIST_PAGES; page++) {
    const query = after === undefined ? '?limit=100' : `?limit=100&after=${encodeURIComponent(after)}`;
    const list = await json<{ data?: OpenAIBatchObject[]; has_more?: boolean }>(connection, 'GET', `/batches${query}`);
    const data = Array.isArray(list.data) ? list.data : [];
    const found = data.find((batch) => batch?.metadata?.[DELEGATION_METADATA_KEY] === delegationId);
    if (found) return found;
    if (list.has_more !== true || data.length === 0) return undefined;
    after = data[data.length - 1].id;
  }
  return undefined;
}

export const getBatch = (connection: BatchApiConnection, id: string): Promise<OpenAIBatchObject> => json(connection, 'GET', `/batches/${encodeURIComponent(id)}`);

export const cancelBatch = (connection: BatchApiConnection, id: string): Promise<OpenAIBatchObject> => json(connection, 'POST', `/batches/${encodeURIComponent(id)}/cancel`);

/** Deletes a file from the upstream's storage (one the gateway uploaded, or a batch's result file it has read). */
export async function deleteFile(connection: BatchApiConnection, fileId: string): Promise<void> {
  await json(connection, 'DELETE', `/files/${encodeURIComponent(fileId)}`);
}

/** A file's content as parsed JSON lines, read as they arrive (a line that is not JSON is skipped). */
export function fileLines(connection: BatchApiConnection, fileId: string): AsyncGenerator<Record<string, unknown>> {
  return jsonlLines({
    url: joinUrl(connection.baseUrl, `/files/${encodeURIComponent(fileId)}/content`),
    headers: headers(connection, false),
    timeoutMs: connection.timeoutMs,
    secrets: [connection.apiKey],
  });
}
