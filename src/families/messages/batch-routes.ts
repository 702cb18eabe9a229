/**
 * Anthropic's Message Batches API on the gateway's batch core
 * (src/tasks/batches/): `POST /v1/messages/batches` (requests inline, up to
 * 100,000), `GET /v1/messages/batches` (`before_id`, `after_id`, `limit`),
 * `GET /v1/messages/batches/{id}`, `POST …/{id}/cancel`, `DELETE …/{id}`
 * (an ended batch only) and `GET …/{id}/results` (JSONL), with the Messages
 * family's key and error shape. Each request runs as `POST /v1/messages`
 * would (batch-line.ts), on this gateway's channels at the normal price,
 * unless an anthropic channel's own Message Batches API takes it
 * (src/tasks/batches/delegation/, at the batch price).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { isWellFormedId } from '../../storage/ids.js';
import { cancelBatch } from '../../tasks/batches/cancel.js';
import { BatchLineRepository } from '../../tasks/batches/lines.js';
import { BatchRepository, isFinalBatch, type NewBatchLine } from '../../tasks/batches/repository.js';
import { batchDb, newBatchRow, type BatchRecord } from '../../tasks/batches/schema.js';
import { renderMessageBatch, renderResult } from './batch-render.js';
import { authenticateMessagesRequest } from './request-key.js';

const MAX_REQUESTS = 100_000;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const RESULTS_PAGE = 500;

export function registerMessageBatchRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = batchDb(ctx.store);
  const batches = new BatchRepository(db);
  const lines = new BatchLineRepository(db, ctx.store.engine);
  const keyOf = async (request: FastifyRequest) => (await authenticateMessagesRequest(ctx, request)).record;
  const origin = (request: FastifyRequest) => ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`;
  const rendered = async (request: FastifyRequest, batch: BatchRecord) => renderMessageBatch(batch, batch.counts ?? (await lines.counts(batch.id)), origin(request));
  const owned = async (request: FastifyRequest): Promise<BatchRecord> => {
    const key = await keyOf(request);
    const id = (request.params as { id: string }).id;
    const batch = isWellFormedId(id) ? await batches.owned(id, key.id, 'anthropic') : undefined;
    if (!batch) throw new GatewayError('not_found', `No message batch with id ${String(id).slice(0, 128)}`);
    return batch;
  };

  app.post('/v1/messages/batches', { bodyLimit: Math.max(ctx.settings.maxBodyBytes, ctx.settings.tasks.fileMaxBytes) }, async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const requests = checkRequests(request.body);
    const row = newBatchRow({ api: 'anthropic', key, endpoint: '/v1/messages', total: requests.length });
    return reply.send(await rendered(request, await batches.create(row, requests)));
  });

  app.get('/v1/messages/batches', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const query = request.query as Record<string, unknown>;
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidRequest('limit: must be an integer from 1 to 1000', 'limit');
    const cursor = (name: string) => {
      const value = query[name];
      if (value !== undefined && (typeof value !== 'string' || !isWellFormedId(value))) throw invalidRequest(`${name}: not a message batch id`, name);
      return value as string | undefined;
    };
    const beforeId = cursor('before_id');
    const afterId = cursor('after_id');
    if (beforeId !== undefined && afterId !== undefined) throw invalidRequest('before_id and after_id cannot be given together');
    // Newest first: `after_id` pages on to older batches, `before_id` back to newer ones.
    const page = await batches.list({ keyId: key.id, api: 'anthropic', olderThan: afterId, newerThan: beforeId, limit: limit + 1 });
    const shown = beforeId !== undefined ? page.slice(-limit) : page.slice(0, limit);
    const data = await Promise.all(shown.map((batch) => rendered(request, batch)));
    return reply.send({ data, has_more: page.length > limit, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  });

  app.get('/v1/messages/batches/:id', async (request: FastifyRequest, reply: FastifyReply) => reply.send(await rendered(request, await owned(request))));

  app.post('/v1/messages/batches/:id/cancel', async (request: FastifyRequest, reply: FastifyReply) => {
    const batch = await owned(request);
    return reply.send(await rendered(request, (await cancelBatch(batches, lines, batch)) ?? batch));
  });

  app.delete('/v1/messages/batches/:id', async (request: FastifyRequest, reply: FastifyReply) => {
    const batch = await owned(request);
    if (!isFinalBatch(batch.status) || !(await batches.delete(batch))) throw invalidRequest('a message batch can be deleted only once it has ended; cancel it first');
    return reply.send({ id: batch.id, type: 'message_batch_deleted' });
  });

  app.get('/v1/messages/batches/:id/results', async (request: FastifyRequest, reply: FastifyReply) => {
    const batch = await owned(request);
    if (!isFinalBatch(batch.status)) throw invalidRequest('the message batch has not ended: its results are not ready');
    async function* results() {
      for (let after = -1; ; ) {
        const page = await lines.page(batch.id, after, RESULTS_PAGE);
        if (page.length === 0) return;
        yield page.map((line) => `${JSON.stringify(renderResult(line))}\n`).join('');
        after = page[page.length - 1].index;
      }
    }
    return reply.code(200).header('content-type', 'application/x-jsonl').send(Readable.from(results()));
  });
}

function checkRequests(body: unknown): NewBatchLine[] {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('the body must be a JSON object with `requests`');
  for (const name of Object.keys(body)) if (name !== 'requests') throw invalidRequest(`${name}: Extra inputs are not permitted`, name);
  if (!Array.isArray(requests) || requests.length === 0) throw invalidRequest('requests: must be a non-empty array', 'requests');
  if (requests.length > MAX_REQUESTS) throw invalidRequest(`requests: at most ${MAX_REQUESTS} requests per batch`, 'requests');
  const seen = new Set<string>();
  return requests.map((entry: unknown, index) => {
    const item = entry as { custom_id?: unknown; params?: unknown } | null;
    const where = `requests.${index}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidRequest(`${where}: must be an object with custom_id and params`, where);
    if (typeof item.custom_id !== 'string' || !CUSTOM_ID.test(item.custom_id)) throw invalidRequest(`${where}.custom_id: 1 to 64 letters, digits, _ or -`, `${where}.custom_id`);
    if (seen.has(item.custom_id)) throw invalidRequest(`${where}.custom_id: ${item.custom_id} is used by an earlier request`, `${where}.custom_id`);
    seen.add(item.custom_id);
    const params = item.params as Record<string, unknown> | null;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalidRequest(`${where}.params: must be a Messages request object`, `${where}.params`);
    if (typeof params.model !== 'string') throw invalidRequest(`${where}.params.model: Field required`, `${where}.params.model`);
    if (params.stream === true) throw invalidRequest(`${where}.params.stream: a batch request cannot be streamed`, `${where}.params.stream`);
    return { customId: item.custom_id, body: JSON.stringify(params) };
  });
}
