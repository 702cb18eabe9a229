/**
 * `/v1/videos` (registered under that prefix): create (multipart or JSON,
 * 201), retrieve, list with a cursor, delete, remix, the content of a video
 * (and its thumbnail and sprite sheet) with byte ranges, and
 * `GET /v1/videos/files/:key`, the `url` of a finished video, which needs no
 * key: the address is the secret, so players and plain links work. Every
 * error leaves as `{error: {message, type}}`.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { isMediaKey } from '../../tasks/media.js';
import type { AppContext } from '../../http/context.js';
import { readCreateBody, readRemixBody } from './bodies.js';
import { sendMedia } from './content.js';
import { VARIANTS, type Variant } from '../../tasks/video-contract.js';
import { installErrorShape, videosErrorBody } from './errors.js';
import { authed, json } from './handler.js';
import { expiresAtMs, mediaOf, renderCreated, renderVideo, statusOf } from './render.js';
import { createVideo, ownedVideo, remixVideo, type VideoContext } from './service.js';
import type { VideoSettings } from './settings.js';
import { deleteVideo, listVideos, type ListQuery } from './store.js';

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
const renderContext = (vc: VideoContext) => ({ base: vc.meta.publicBase, retentionMs: vc.settings.retentionMs });

function readListQuery(query: Record<string, unknown>): ListQuery {
  const limitText = query.limit;
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new GatewayError('invalid_request', 'limit: must be a whole number from 1 to 100', { param: 'limit' });
  }
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw new GatewayError('invalid_request', 'order: must be asc or desc', { param: 'order' });
  const after = typeof query.after === 'string' && query.after !== '' ? query.after : undefined;
  return { after, limit, order };
}

function readVariant(value: unknown): Variant {
  if (value === undefined || value === '') return 'video';
  if (typeof value !== 'string' || !(VARIANTS as readonly string[]).includes(value)) {
    throw new GatewayError('invalid_request', `variant: must be one of ${VARIANTS.join(', ')}`, { param: 'variant' });
  }
  return value as Variant;
}

const EXTENSIONS: Record<string, string> = { 'video/mp4': 'mp4', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

async function sendContent(vc: VideoContext, request: FastifyRequest, reply: Parameters<typeof sendMedia>[0]) {
  const task = await ownedVideo(vc, idOf(request));
  const variant = readVariant((request.query as Record<string, unknown>).variant);
  const status = statusOf(task);
  if (status !== 'succeeded') {
    const why = status === 'failed' ? `generation failed: ${task.failReason ?? 'unknown reason'}` : `it is still processing (${task.progress}%)`;
    throw new GatewayError('invalid_request', `video ${task.id} has no content: ${why}`);
  }
  const expires = expiresAtMs(task, vc.settings.retentionMs);
  if (expires !== null && expires <= Date.now()) {
    throw new GatewayError('not_found', `the content of video ${task.id} expired at ${new Date(expires).toISOString()}`);
  }
  const ref = mediaOf(task, variant);
  if (!ref) throw new GatewayError('not_found', `video ${task.id} has no ${variant}: its upstream did not provide one`, { param: 'variant' });
  const suffix = variant === 'video' ? '' : `_${variant}`;
  return sendMedia(reply, vc.ctx.tasks.media, ref.key, {
    filename: `${task.id}${suffix}.${EXTENSIONS[ref.contentType] ?? 'bin'}`,
    disposition: 'attachment',
    cacheControl: 'private, max-age=3600',
    range: request.headers.range,
  });
}

export async function registerVideosApi(app: FastifyInstance, ctx: AppContext, settings: VideoSettings): Promise<void> {
  await app.register(multipart);
  installErrorShape(app, videosErrorBody);
  const route = (handler: Parameters<typeof authed>[2]) => authed(ctx, settings, handler);

  app.post(
    '/',
    route(async (vc, request, reply) => {
      const task = await createVideo(vc, await readCreateBody(request, ctx.settings.maxBodyBytes));
      return json(reply, 201, renderCreated(task));
    }),
  );
  app.get(
    '/',
    route(async (vc, request, reply) => {
      const query = readListQuery(request.query as Record<string, unknown>);
      const page = await listVideos(ctx, vc.key.record.id, query);
      const data = page.tasks.map((task) => renderVideo(task, renderContext(vc)));
      return json(reply, 200, { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: page.hasMore });
    }),
  );
  app.get(
    '/:id',
    route(async (vc, request, reply) => json(reply, 200, renderVideo(await ownedVideo(vc, idOf(request)), renderContext(vc)))),
  );
  app.delete(
    '/:id',
    route(async (vc, request, reply) => {
      const task = await ownedVideo(vc, idOf(request));
      await deleteVideo(ctx, task);
      return json(reply, 200, { id: task.id, object: 'video.deleted', deleted: true });
    }),
  );
  app.post(
    '/:id/remix',
    route(async (vc, request, reply) => {
      const parent = await ownedVideo(vc, idOf(request));
      const task = await remixVideo(vc, parent, await readRemixBody(request));
      return json(reply, 201, renderVideo(task, renderContext(vc)));
    }),
  );
  app.get(
    '/:id/content',
    route((vc, request, reply) => sendContent(vc, request, reply)),
  );

  app.get('/files/:key', async (request, reply) => {
    const key = (request.params as { key: string }).key;
    if (!isMediaKey(key)) throw new GatewayError('not_found', 'file not found');
    return sendMedia(reply, ctx.tasks.media, key, {
      filename: `video.${key.slice(key.lastIndexOf('.') + 1)}`,
      disposition: 'inline',
      cacheControl: 'public, max-age=3600',
      range: request.headers.range,
    });
  });
}
