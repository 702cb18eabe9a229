/**
 * A loopback Anthropic Message Batches API: `POST /v1/messages/batches`
 * (requests inline), `GET /v1/messages/batches` (newest first, `limit`),
 * `GET /v1/messages/batches/{id}`, `POST …/{id}/cancel`, `GET …/{id}/results`
 * (JSONL, once ended) and `DELETE …/{id}` (ended only; the ids deleted kept
 * in `deleted`). A batch ends after `pollsToFinish` looks, each request
 * succeeded (a message naming its `custom_id`, with usage) or, when its
 * params hold `FAIL`, errored (invalid_request_error). It can be told to
 * expire its batches unanswered, to refuse (400) creates, or to "lose" the
 * answer of the next create (made, but the gateway sees a 500), optionally
 * with another party's batch of the same size made just after, or to fail
 * the next create (not made) while another party makes a batch of that size. It also
 * answers interactive `POST /v1/messages` (`interactive answer`), as the
 * requests the gateway runs itself on the channel need. Every call must
 * carry the key in `x-api-key` and an `anthropic-version`.
 */
import { randomBytes } from 'node:crypto';
import { startFakeUpstream, type FakeReply, type FakeUpstream, type RecordedRequest } from '../upstreams/support/fake-upstream.js';

export const ANTHROPIC_BATCH_FAKE_KEY = 'sk-ant-batch-fake-0123456789';

interface FakeRequest {
  custom_id: string;
  params: Record<string, unknown>;
}

export interface FakeMessageBatch {
  id: string;
  processing_status: 'in_progress' | 'canceling' | 'ended';
  created_at: string;
  ended_at: string | null;
  cancel_initiated_at: string | null;
  requests: FakeRequest[];
  results: string | null;
  /** How it ended: answered, expired or canceled. */
  outcome: 'answered' | 'expired' | 'canceled' | null;
  polls: number;
  /** Made by another client of the account, not by the gateway. */
  foreign: boolean;
}

export interface AnthropicBatchFake {
  upstream: FakeUpstream;
  origin: string;
  batches: FakeMessageBatch[];
  /** The batch ids deleted, in order. */
  deleted: string[];
  pollsToFinish: number;
  /** The next batches end with every request expired. */
  expire: boolean;
  /** Creates answered with this status (the batch not made). */
  createStatus?: number;
  /** The next create makes the batch but answers 500. */
  loseNextCreate: boolean;
  /** With a lost create, another client makes a batch of the same size just after. */
  twinOfLost: boolean;
  /** The next create fails (500, not made) while another client makes a batch of the same size, its own custom ids. */
  foreignOnFailedCreate: boolean;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): FakeReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const error = (status: number, type: string, message: string) => json(status, { type: 'error', error: { type, message }, request_id: null });
const id = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

export async function startAnthropicBatchFake(): Promise<AnthropicBatchFake> {
  const fake = { batches: [], deleted: [], pollsToFinish: 2, expire: false, loseNextCreate: false, twinOfLost: false, foreignOnFailedCreate: false } as unknown as AnthropicBatchFake;
  fake.upstream = await startFakeUpstream((request) => {
    if (request.headers['x-api-key'] !== ANTHROPIC_BATCH_FAKE_KEY) return error(401, 'authentication_error', 'invalid x-api-key');
    if (!request.headers['anthropic-version']) return error(400, 'invalid_request_error', 'anthropic-version: header is required');
    return serve(fake, request);
  });
  fake.origin = fake.upstream.origin;
  fake.close = () => fake.upstream.close();
  return fake;
}

function serve(fake: AnthropicBatchFake, request: RecordedRequest): FakeReply {
  const url = new URL(request.url, 'http://fake');
  const path = url.pathname;
  if (request.method === 'POST' && path === '/v1/messages') {
    const body = request.json<{ model: string }>();
    return json(200, message(body.model, 'interactive answer'));
  }
  if (request.method === 'POST' && path === '/v1/messages/batches') return create(fake, request);
  if (request.method === 'GET' && path === '/v1/messages/batches') {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const page = [...fake.batches].reverse().slice(0, limit);
    return json(200, { data: page.map((batch) => view(fake, batch)), has_more: fake.batches.length > limit, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
  }
  const one = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path);
  const batch = one && fake.batches.find((entry) => entry.id === one[1]);
  if (!one || !batch) return error(404, 'not_found_error', 'No such message batch');
  if (request.method === 'POST' && one[2] === '/cancel') {
    if (batch.processing_status === 'in_progress') {
      batch.processing_status = 'canceling';
      batch.cancel_initiated_at = new Date().toISOString();
    }
    return json(200, view(fake, batch));
  }
  if (request.method === 'GET' && one[2] === '/results') {
    if (batch.results === null) return error(400, 'invalid_request_error', 'the batch has not ended');
    return { status: 200, headers: { 'content-type': 'application/x-jsonl' }, body: batch.results };
  }
  if (request.method === 'GET' && !one[2]) {
    advance(fake, batch);
    return json(200, view(fake, batch));
  }
  if (request.method === 'DELETE' && !one[2]) {
    if (batch.processing_status !== 'ended') return error(400, 'invalid_request_error', 'a batch must end before it is deleted');
    fake.batches.splice(fake.batches.indexOf(batch), 1);
    fake.deleted.push(batch.id);
    return json(200, { id: batch.id, type: 'message_batch_deleted' });
  }
  return error(405, 'invalid_request_error', 'method not allowed');
}

function create(fake: AnthropicBatchFake, request: RecordedRequest): FakeReply {
  if (fake.createStatus) return error(fake.createStatus, 'invalid_request_error', 'batch creation refused');
  const requests = request.json<{ requests?: FakeRequest[] }>().requests;
  if (!Array.isArray(requests) || requests.length === 0) return error(400, 'invalid_request_error', 'requests: must be a non-empty list');
  if (fake.foreignOnFailedCreate) {
    fake.foreignOnFailedCreate = false;
    fake.batches.push(
      made(
        requests.map((entry, index) => ({ ...entry, custom_id: `other-${index}` })),
        true,
      ),
    );
    return error(500, 'api_error', 'Internal server error');
  }
  const batch = made(requests, false);
  fake.batches.push(batch);
  if (fake.loseNextCreate) {
    fake.loseNextCreate = false;
    if (fake.twinOfLost) fake.batches.push(made(requests, true));
    return error(500, 'api_error', 'Internal server error');
  }
  return json(200, view(fake, batch));
}

function made(requests: FakeRequest[], foreign: boolean): FakeMessageBatch {
  return {
    ...{ id: id('msgbatch_'), processing_status: 'in_progress', created_at: new Date().toISOString(), ended_at: null, cancel_initiated_at: null },
    ...{ requests, results: null, outcome: null, polls: 0, foreign },
  };
}

function view(fake: AnthropicBatchFake, batch: FakeMessageBatch) {
  const count = (outcome: FakeMessageBatch['outcome']) => (batch.outcome === outcome ? batch.requests.length : 0);
  const answered = batch.outcome === 'answered' ? batch.requests.filter((request) => JSON.stringify(request.params).includes('FAIL')).length : 0;
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.processing_status,
    request_counts: {
      processing: batch.outcome === null ? batch.requests.length : 0,
      succeeded: count('answered') - answered,
      errored: answered,
      canceled: count('canceled'),
      expired: count('expired'),
    },
    created_at: batch.created_at,
    ended_at: batch.ended_at,
    expires_at: new Date(Date.parse(batch.created_at) + 86_400_000).toISOString(),
    cancel_initiated_at: batch.cancel_initiated_at,
    archived_at: null,
    results_url: batch.results === null ? null : `${fake.origin}/v1/messages/batches/${batch.id}/results`,
  };
}

/** A look at the batch moves it on: after `pollsToFinish` looks it ended, its results written (a cancelled one ends at the next look). */
function advance(fake: AnthropicBatchFake, batch: FakeMessageBatch): void {
  batch.polls++;
  if (batch.processing_status === 'ended') return;
  const outcome = batch.processing_status === 'canceling' ? 'canceled' : batch.polls < fake.pollsToFinish ? null : fake.expire ? 'expired' : 'answered';
  if (outcome === null) return;
  batch.outcome = outcome;
  batch.results = batch.requests.map((request) => `${JSON.stringify({ custom_id: request.custom_id, result: result(outcome, request) })}\n`).join('');
  batch.processing_status = 'ended';
  batch.ended_at = new Date().toISOString();
}

function result(outcome: 'answered' | 'expired' | 'canceled', request: FakeRequest) {
  if (outcome !== 'answered') return { type: outcome };
  if (JSON.stringify(request.params).includes('FAIL')) return { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'this request fails' }, request_id: null } };
  return { type: 'succeeded', message: message(String(request.params.model), `batch answer to ${request.custom_id}`) };
}

function message(model: string, text: string) {
  return {
    id: id('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}
