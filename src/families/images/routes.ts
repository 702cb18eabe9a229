/**
 * Family A routes under `/ig`: submissions, buttons and modals, reads, seed,
 * uploads (all with `Authorization: Bearer`), and `GET /ig/image/:key`, which
 * needs no key: its address is the secret, so images embed anywhere. Every
 * error leaves as the family's envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { mediaExpiry } from '../../tasks/media.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { renderError } from './errors.js';
import { submitAction, submitModal } from './follow-ups.js';
import { fetchTask, imageSeed, listByCondition, uploadImages } from './reads.js';
import { submitBlend, submitDescribe, submitFaceSwap, submitImagine, submitShorten, type SubmitContext } from './submissions.js';
import { useFamilyErrors } from '../../http/family-errors.js';

type Handler = (sc: SubmitContext, request: FastifyRequest) => Promise<unknown>;

export function registerImageRoutes(app: FastifyInstance, ctx: AppContext): void {
  useFamilyErrors(app, (error) => renderError(error));

  const publicBase = (request: FastifyRequest) => ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`;
  const authed = (handler: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const sc: SubmitContext = {
      ctx,
      key,
      meta: { requestId: request.id, clientIp: request.ip, startedAt },
      publicBase: publicBase(request),
    };
    const body = await handler(sc, request);
    reply.code(200).type('application/json').send(JSON.stringify(body));
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.post(
    '/submit/imagine',
    authed((sc, request) => submitImagine(sc, request.body)),
  );
  app.post(
    '/submit/blend',
    authed((sc, request) => submitBlend(sc, request.body)),
  );
  app.post(
    '/submit/describe',
    authed((sc, request) => submitDescribe(sc, request.body)),
  );
  app.post(
    '/submit/shorten',
    authed((sc, request) => submitShorten(sc, request.body)),
  );
  app.post(
    '/submit/action',
    authed((sc, request) => submitAction(sc, request.body)),
  );
  app.post(
    '/submit/modal',
    authed((sc, request) => submitModal(sc, request.body)),
  );
  app.post(
    '/submit/upload-discord-images',
    authed((sc, request) => uploadImages(sc, request.body)),
  );
  app.post(
    '/face/swap',
    authed((sc, request) => submitFaceSwap(sc, request.body)),
  );
  app.post(
    '/insight-face/swap',
    authed((sc, request) => submitFaceSwap(sc, request.body)),
  );
  app.post(
    '/task/list-by-condition',
    authed((sc, request) => listByCondition(sc, request.body)),
  );
  app.post(
    '/task/list-by-ids',
    authed((sc, request) => listByCondition(sc, request.body)),
  );
  app.get(
    '/task/:id/fetch',
    authed((sc, request) => fetchTask(sc, idOf(request))),
  );
  app.get(
    '/task/:id/image-seed',
    authed((sc, request) => imageSeed(sc, idOf(request))),
  );

  app.get('/image/:key', async (request, reply) => {
    const key = (request.params as { key: string }).key;
    const object = await ctx.tasks.media.open(key);
    if (!object) throw new GatewayError('not_found', 'image not found');
    // The key never changes its content, so caches may keep it (an expiring answer's only until it expires).
    const expiresAt = mediaExpiry(key);
    const maxAge = expiresAt === undefined ? 86_400 : Math.max(0, Math.min(86_400, Math.floor((expiresAt - Date.now()) / 1000)));
    reply.code(200).header('content-type', object.contentType).header('content-length', String(object.size)).header('cache-control', `public, max-age=${maxAge}, immutable`);
    return reply.send(object.stream);
  });
}
