/**
 * A loopback OpenAI Files and Batch API: `POST /v1/files` (multipart, purpose
 * `batch`), `GET /v1/files/{id}/content`, `DELETE /v1/files/{id}` (the
 * ids deleted kept in `deleted`), `POST /v1/batches` (input file,
 * endpoint, metadata), `GET /v1/batches` (newest first, `after`), `GET
 * /v1/batches/{id}` and `POST /v1/batches/{id}/cancel`. A batch completes
 * after `pollsToFinish` looks, answering each line (a chat completion, an
 * embedding list or a text completion, with usage); a line whose body holds
 * `FAIL` is answered 400 in the error file, one holding `BUSY` 503. It can be told to expire its
 * batches unanswered, to refuse (400) or fail (500) creates, or to "lose"
 * the answer of the next create (made, but the gateway sees a 500: the
 * adoption case). It also answers interactive chat completions (`interactive
 * answer`), as the lines the gateway runs itself on the channel need. Every call must carry the key as a Bearer credential.
 */
import { randomBytes } from 'node:crypto';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

export const BATCH_FAKE_KEY = 'sk-openai-batch-fake-0123456789';

export interface FakeBatch {
  id: string;
  status: string;
  endpoint: string;
  input_file_id: string;
  output_file_id: string | null;
  error_file_id: string | null;
  metadata: Record<string, string> | null;
  created_at: number;
  polls: number;
  models: string[];
  lines: number;
}

export interface BatchFake {
  upstream: FakeUpstream;
  origin: string;
  files: Map<string, { purpose: string; content: string }>;
  /** The files deleted, in order. */
  deleted: string[];
  batches: FakeBatch[];
  pollsToFinish: number;
  /** The next batches end `expired`, no line answered. */
  expire: boolean;
  /** Creates answered with this status (the batch not made). */
  createStatus?: number;
  /** The next create makes the batch but answers 500. */
  loseNextCreate: boolean;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): FakeReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const error = (status: number, message: string) => json(status, { error: { message, type: 'invalid_request_error', param: null, code: null } });
const id = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

export async function startBatchFake(): Promise<BatchFake> {
  const fake = { files: new Map(), deleted: [], batches: [], pollsToFinish: 2, expire: false, loseNextCreate: false } as unknown as BatchFake;
  fake.upstream = await startFakeUpstream((request) => {
    if (request.headers.authorization !== `Bearer ${BATCH_FAKE_KEY}`) return error(401, 'Incorrect API key provided.');
    return serve(fake, request);
  });
  fake.origin = fake.upstream.origin;
  fake.close = () => fake.upstream.close();
  return fake;
}

function serve(fake: BatchFake, request: RecordedRequest): FakeReply {
  const url = new URL(request.url, 'http://fake');
  const path = url.pathname;
  if (request.method === 'POST' && path === '/v1/files') return upload(fake, request);
  const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
  if (request.method === 'GET' && content) {
    const file = fake.files.get(content[1]);
    return file ? { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file.content } : error(404, 'No such File object');
  }
  const file = /^\/v1\/files\/([^/]+)$/.exec(path);
  if (request.method === 'DELETE' && file) {
    if (!fake.files.delete(file[1])) return error(404, 'No such File object');
    fake.deleted.push(file[1]);
    return json(200, { id: file[1], object: 'file', deleted: true });
  }
  if (request.method === 'POST' && path === '/v1/batches') return create(fake, request);
  // Interactive chat, for the lines the gateway runs itself on this channel.
  if (request.method === 'POST' && path === '/v1/chat/completions') {
    const body = request.json<{ model: string }>();
    const reply = answer('/v1/chat/completions', { custom_id: 'interactive', body });
    return json(200, { ...reply, choices: [{ ...reply.choices![0], message: { role: 'assistant', content: 'interactive answer' } }] });
  }
  if (request.method === 'GET' && path === '/v1/batches') {
    const newest = [...fake.batches].reverse();
    const after = url.searchParams.get('after');
    const start = after ? newest.findIndex((batch) => batch.id === after) + 1 : 0;
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const page = newest.slice(start, start + limit);
    return json(200, { object: 'list', data: page.map(view), has_more: start + limit < newest.length, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
  }
  const one = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  const batch = one && fake.batches.find((entry) => entry.id === one[1]);
  if (!batch) return error(404, 'No such Batch object');
  if (request.method === 'POST' && one[2]) {
    if (['validating', 'in_progress', 'finalizing'].includes(batch.status)) batch.status = 'cancelling';
    return json(200, view(batch));
  }
  if (request.method === 'GET' && !one[2]) {
    advance(fake, batch);
    return json(200, view(batch));
  }
  return error(405, 'method not allowed');
}

function upload(fake: BatchFake, request: RecordedRequest): FakeReply {
  const boundary = /boundary=(.+)$/.exec(String(request.headers['content-type']))?.[1];
  if (!boundary) return error(400, 'expected multipart/form-data');
  const parts = request.body.toString('utf8').split(`--${boundary}`);
  let purpose: string | undefined;
  let content: string | undefined;
  for (const part of parts) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const body = part.slice(split + 4).replace(/\r\n$/, '');
    if (/name="purpose"/.test(head)) purpose = body;
    else if (/name="file"/.test(head)) content = body;
  }
  if (purpose !== 'batch' || content === undefined) return error(400, 'purpose batch and a file are required');
  const fileId = id('file-');
  fake.files.set(fileId, { purpose, content });
  return json(200, { id: fileId, object: 'file', bytes: content.length, purpose, filename: 'input.jsonl', created_at: Math.floor(Date.now() / 1000), status: 'processed' });
}

function create(fake: BatchFake, request: RecordedRequest): FakeReply {
  if (fake.createStatus) return error(fake.createStatus, 'batch creation refused');
  const body = request.json<{ input_file_id: string; endpoint: string; completion_window: string; metadata?: Record<string, string> }>();
  const file = fake.files.get(body.input_file_id);
  if (!file || body.completion_window !== '24h') return error(400, 'bad input file or window');
  const lines = file.content
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { body: { model: string } });
  const batch: FakeBatch = {
    id: id('batch_'),
    status: 'validating',
    endpoint: body.endpoint,
    input_file_id: body.input_file_id,
    output_file_id: null,
    error_file_id: null,
    metadata: body.metadata ?? null,
    created_at: Math.floor(Date.now() / 1000),
    polls: 0,
    models: [...new Set(lines.map((line) => line.body.model))],
    lines: lines.length,
  };
  fake.batches.push(batch);
  if (fake.loseNextCreate) {
    fake.loseNextCreate = false;
    return error(500, 'The server had an error while processing your request.');
  }
  return json(200, view(batch));
}

function view(batch: FakeBatch) {
  const { polls: _polls, models: _models, lines: _lines, ...rest } = batch;
  return { object: 'batch', completion_window: '24h', ...rest };
}

/** A look at the batch moves it on: in progress, then after `pollsToFinish` looks ended, its files written. */
function advance(fake: BatchFake, batch: FakeBatch): void {
  batch.polls++;
  if (batch.status === 'validating') batch.status = 'in_progress';
  if (batch.status === 'cancelling') {
    batch.status = 'cancelled';
    return;
  }
  if (batch.status !== 'in_progress' || batch.polls < fake.pollsToFinish) return;
  if (fake.expire) {
    batch.status = 'expired';
    return;
  }
  const input = fake.files
    .get(batch.input_file_id)!
    .content.split('\n')
    .filter((line) => line !== '');
  let output = '';
  let errors = '';
  for (const text of input) {
    const line = JSON.parse(text) as { custom_id: string; body: Record<string, unknown> };
    const requestId = id('req_');
    if (JSON.stringify(line.body).includes('BUSY')) {
      errors += `${JSON.stringify({ id: id('batch_req_'), custom_id: line.custom_id, response: { status_code: 503, request_id: requestId, body: { error: { message: 'The server is overloaded.', type: 'server_error', param: null, code: null } } }, error: null })}\n`;
      continue;
    }
    if (JSON.stringify(line.body).includes('FAIL')) {
      errors += `${JSON.stringify({ id: id('batch_req_'), custom_id: line.custom_id, response: { status_code: 400, request_id: requestId, body: { error: { message: 'this line fails', type: 'invalid_request_error', param: null, code: 'line_refused' } } }, error: null })}\n`;
      continue;
    }
    output += `${JSON.stringify({ id: id('batch_req_'), custom_id: line.custom_id, response: { status_code: 200, request_id: requestId, body: answer(batch.endpoint, line) }, error: null })}\n`;
  }
  if (output) batch.output_file_id = store(fake, output);
  if (errors) batch.error_file_id = store(fake, errors);
  batch.status = 'completed';
}

function store(fake: BatchFake, content: string): string {
  const fileId = id('file-');
  fake.files.set(fileId, { purpose: 'batch_output', content });
  return fileId;
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function answer(endpoint: string, line: { custom_id: string; body: Record<string, unknown> }): Record<string, unknown> & { choices?: Record<string, unknown>[] } {
  const model = line.body.model;
  if (endpoint === '/v1/embeddings') return { object: 'list', model, data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3] }], usage: { prompt_tokens: 10, total_tokens: 10 } };
  if (endpoint === '/v1/responses')
    return {
      id: id('resp_'),
      object: 'response',
      created_at: 1,
      status: 'completed',
      model,
      output: [{ type: 'message', id: id('msg_'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: `batch response to ${line.custom_id}`, annotations: [] }] }],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    };
  if (endpoint === '/v1/completions')
    return { id: id('cmpl-'), object: 'text_completion', model, created: 1, choices: [{ index: 0, text: `batch text ${line.custom_id}`, finish_reason: 'stop', logprobs: null }], usage: USAGE };
  return {
    id: id('chatcmpl-'),
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: `batch answer to ${line.custom_id}` }, finish_reason: 'stop', logprobs: null }],
    usage: USAGE,
  };
}
