/**
 * The stored-response endpoints, scoped to the calling key (another key's
 * response is "not found"):
 * - `GET /v1/responses/{id}`: the response object as it was answered;
 * - `DELETE /v1/responses/{id}`: `{id, object: "response.deleted", deleted: true}`;
 * - `GET /v1/responses/{id}/input_items`: that turn's input items, as a cursor
 *   page (`after`, `before`, `limit` 1-100 default 20, `order` default `desc`).
 * `include=reasoning.encrypted_content` shows reasoning's encrypted content.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidRequest } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import type { ClientKey } from '../../http/auth.js';
import { bearerToken } from '../../http/credentials.js';
import type { ResponseRepository, StoredItem } from '../../storage/responses.js';
import { responseNotFound } from '../../dialects/openai/errors.js';
import { includeOptions, visibleItem, visibleItems } from './items.js';

type Query = Record<string, string | string[] | undefined>;

export function registerStoredRoutes(app: FastifyInstance, ctx: AppContext, repository: ResponseRepository): void {
  const authenticate = (request: FastifyRequest): ClientKey | Promise<ClientKey> => ctx.auth.authenticate(bearerToken(request), request.ip);
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.get('/v1/responses/:id', async (request, reply) => {
    const key = await authenticate(request);
    const record = await repository.get(idOf(request), key.record.id);
    if (!record) throw responseNotFound(idOf(request));
    const include = includeOptions(includeParam(request.query as Query));
    const output = visibleItems(record.response.output ?? [], include);
    reply.type('application/json').send(JSON.stringify({ ...record.response, output }));
  });

  app.delete('/v1/responses/:id', async (request) => {
    const key = await authenticate(request);
    if (!(await repository.delete(idOf(request), key.record.id))) throw responseNotFound(idOf(request));
    return { id: idOf(request), object: 'response.deleted', deleted: true };
  });

  app.get('/v1/responses/:id/input_items', async (request) => {
    const key = await authenticate(request);
    const record = await repository.get(idOf(request), key.record.id);
    if (!record) throw responseNotFound(idOf(request));
    const query = request.query as Query;
    const include = includeOptions(includeParam(query));
    return pageOf(record.input, query, (item) => visibleItem(item, include));
  });
}

function includeParam(query: Query): string[] {
  const values = [query.include, query['include[]']].flat().filter((value): value is string => typeof value === 'string');
  return values.flatMap((value) => value.split(','));
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

function pageOf(items: readonly StoredItem[], query: Query, show: (item: StoredItem) => StoredItem) {
  const order = single(query, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequest(`Invalid 'order': must be "asc" or "desc"`, 'order');
  const limitText = single(query, 'limit') ?? '20';
  const limit = Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest(`Invalid 'limit': must be an integer from 1 to 100`, 'limit');
  let list = order === 'asc' ? items.slice() : items.slice().reverse();
  const after = single(query, 'after');
  if (after !== undefined) list = list.slice(cursorIndex(list, after, 'after') + 1);
  const before = single(query, 'before');
  if (before !== undefined) list = list.slice(0, cursorIndex(list, before, 'before'));
  const data = list.slice(0, limit).map(show);
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data[data.length - 1]?.id as string | undefined) ?? null,
    has_more: list.length > limit,
  };
}

function cursorIndex(list: readonly StoredItem[], id: string, name: string): number {
  const index = list.findIndex((item) => item.id === id);
  if (index < 0) throw invalidRequest(`Invalid '${name}': no input item with id '${id}' in this response`, name);
  return index;
}
