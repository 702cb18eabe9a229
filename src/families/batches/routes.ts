/**
 * OpenAI's Batch API on the gateway's own batch core (src/tasks/batches/):
 * `POST /v1/batches`, `GET /v1/batches/{id}`, `POST
 * /v1/batches/{id}/cancel` and `GET /v1/batches` (`after`, `limit`), with a
 * Bearer key and OpenAI's error shape. A batch's lines run on this
 * gateway's channels through the same path as interactive requests, billed
 * at the normal price: the upstreams' own batch APIs are not used. A key
 * sees only its own batches.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { FileRepository } from '../../storage/files.js';
import { isWellFormedId } from '../../storage/ids.js';
import { cancelBatch } from '../../tasks/batches/cancel.js';
import { BatchLineRepository } from '../../tasks/batches/lines.js';
import { BatchRepository } from '../../tasks/batches/repository.js';
import { batchDb, type BatchRecord } from '../../tasks/batches/schema.js';
import { createBatch } from './create.js';
import { renderBatch } from './render.js';

export function registerBatchRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));
  const db = batchDb(ctx.store);
  const batches = new BatchRepository(db);
  const lines = new BatchLineRepository(db, ctx.store.engine);
  const files = new FileRepository(ctx.store);
  const keyOf = async (request: FastifyRequest) => (await ctx.auth.authenticate(bearerToken(request), request.ip)).record;
  const rendered = async (batch: BatchRecord) => renderBatch(batch, batch.counts ?? (await lines.counts(batch.id)));
  const owned = async (request: FastifyRequest): Promise<BatchRecord> => {
    const key = await keyOf(request);
    const id = (request.params as { id: string }).id;
    const batch = isWellFormedId(id) ? await batches.owned(id, key.id, 'openai') : undefined;
    if (!batch) throw new GatewayError('not_found', `No such Batch object: ${String(id).slice(0, 128)}`, { param: 'batch_id' });
    return batch;
  };

  app.post('/v1/batches', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const batch = await createBatch({ batches, files, media: ctx.tasks.media }, key, request.body);
    return reply.send(await rendered(batch));
  });

  app.get('/v1/batches/:id', async (request: FastifyRequest, reply: FastifyReply) => reply.send(await rendered(await owned(request))));

  app.post('/v1/batches/:id/cancel', async (request: FastifyRequest, reply: FastifyReply) => {
    const batch = await cancelBatch(batches, lines, await owned(request));
    if (!batch) throw new GatewayError('invalid_request', 'the batch has ended: only a running batch can be cancelled', { status: 409 });
    return reply.send(await rendered(batch));
  });

  app.get('/v1/batches', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const query = request.query as Record<string, unknown>;
    const limit = query.limit === undefined ? 20 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest("Invalid 'limit': expected an integer from 1 to 100", 'limit');
    const after = query.after;
    if (after !== undefined && (typeof after !== 'string' || !isWellFormedId(after))) throw invalidRequest("Invalid 'after': not a batch id", 'after');
    const page = await batches.list({ keyId: key.id, api: 'openai', olderThan: after as string | undefined, limit: limit + 1 });
    const data = await Promise.all(page.slice(0, limit).map(rendered));
    return reply.send({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.length > limit });
  });
}
