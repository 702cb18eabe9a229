/**
 * Files, as OpenAI serves them: `POST /v1/files` (multipart upload),
 * `GET /v1/files` (`purpose`, `limit`, `after`, `order`), `GET
 * /v1/files/{id}`, `GET /v1/files/{id}/content` and `DELETE
 * /v1/files/{id}`, each with a Bearer key and OpenAI's error shape. A key
 * sees only its own files: another key's is "No such File object", as is an
 * expired one. Bytes live in the media store (src/tasks/media.ts); expired
 * files are swept (sweeper.ts). Only `batch` files are read by the gateway
 * (batches' input); it writes `batch_output` files (their results).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { useFamilyErrors } from '../../http/family-errors.js';
import { FileRepository, newFileId, type FileRecord } from '../../storage/files.js';
import { isWellFormedId } from '../../storage/ids.js';
import { renderFile, renderFileList } from './render.js';
import { readUpload } from './upload.js';

const MAX_LIST = 10_000;

export async function registerFileRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(multipart);
  useFamilyErrors(app, (error) => renderOpenAIError(error, 'chat-completions'));
  const files = new FileRepository(ctx.store);
  const media = ctx.tasks.media;
  const keyOf = async (request: FastifyRequest) => (await ctx.auth.authenticate(bearerToken(request), request.ip)).record;
  const owned = async (request: FastifyRequest): Promise<FileRecord> => {
    const key = await keyOf(request);
    const id = (request.params as { id: string }).id;
    const file = isWellFormedId(id) ? await files.get(id, key.id) : undefined;
    if (!file) throw fileNotFound(id);
    return file;
  };

  app.post('/v1/files', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const upload = await readUpload(request, media, ctx.settings.tasks.fileMaxBytes);
    const now = Date.now();
    const file: FileRecord = {
      id: newFileId(now),
      keyId: key.id,
      teamId: key.teamId,
      userId: key.userId,
      purpose: upload.purpose,
      filename: upload.filename,
      bytes: upload.stored.size,
      status: 'processed',
      mediaKey: upload.stored.key,
      createdAt: now,
      expiresAt: upload.expiresAfterSeconds === undefined ? null : now + upload.expiresAfterSeconds * 1000,
    };
    try {
      await files.insert(file);
    } catch (error) {
      await media.remove(file.mediaKey).catch(() => undefined);
      throw error;
    }
    return reply.code(200).send(renderFile(file));
  });

  app.get('/v1/files', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const query = listQuery(request.query as Record<string, unknown>);
    const page = await files.list({ keyId: key.id, ...query, limit: query.limit + 1 });
    return reply.send(renderFileList(page.slice(0, query.limit), page.length > query.limit));
  });

  app.get('/v1/files/:id', async (request: FastifyRequest, reply: FastifyReply) => reply.send(renderFile(await owned(request))));

  app.get('/v1/files/:id/content', async (request: FastifyRequest, reply: FastifyReply) => {
    const file = await owned(request);
    const object = await media.open(file.mediaKey);
    if (!object) throw fileNotFound(file.id);
    return reply.code(200).header('content-type', 'application/octet-stream').header('content-length', String(object.size)).send(object.stream);
  });

  app.delete('/v1/files/:id', async (request: FastifyRequest, reply: FastifyReply) => {
    const key = await keyOf(request);
    const id = (request.params as { id: string }).id;
    const file = isWellFormedId(id) ? await files.delete(id, key.id) : undefined;
    if (!file) throw fileNotFound(id);
    await media.remove(file.mediaKey).catch((error: unknown) => request.log.warn({ err: error, file: file.id }, 'a deleted file could not be removed from the media store'));
    return reply.send({ id: file.id, object: 'file', deleted: true });
  });
}

export function fileNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No such File object: ${String(id).slice(0, 128)}`, { param: 'id' });
}

function listQuery(query: Record<string, unknown>): { purpose?: string; after?: string; limit: number; order: 'asc' | 'desc' } {
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidRequest(`Invalid '${name}': given more than once`, name);
    return value;
  };
  const limitText = text('limit');
  const limit = limitText === undefined ? MAX_LIST : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > MAX_LIST) throw invalidRequest(`Invalid 'limit': expected an integer from 1 to ${MAX_LIST}`, 'limit');
  const order = text('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequest("Invalid 'order': expected 'asc' or 'desc'", 'order');
  const after = text('after');
  if (after !== undefined && !isWellFormedId(after)) throw invalidRequest("Invalid 'after': not a file id", 'after');
  return { purpose: text('purpose'), after, limit, order };
}
