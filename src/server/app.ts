/**
 * Assembles the HTTP application: body parsing (once, keeping the raw bytes
 * for pass-through), request ids, health, the API families and the admin API.
 * Each family registers its routes in its own encapsulated scope with its own
 * error handler, so every error leaves in that family's shape.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { registerAdminRoutes } from '../admin/routes.js';
import { exposedError, GatewayError } from '../core/errors.js';
import { randomHex } from '../core/random.js';
import { registerGenerateRoutes } from '../families/generate/routes.js';
import { registerImageRoutes } from '../families/images/routes.js';
import { registerMessagesRoutes } from '../families/messages/routes.js';
import { registerResponsesRoutes } from '../families/responses/routes.js';
import { registerVideoRoutes } from '../families/videos/routes.js';
import { asGatewayError } from '../http/fastify-errors.js';
import type { AppContext } from '../http/context.js';
import { registerHealthRoutes } from './health.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as received, for the pass-through path. */
    rawBody?: Buffer;
  }
}

export function newRequestId(): string {
  return `req_${randomHex(12)}`;
}

function parseJsonBody(_request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  _request.rawBody = body;
  if (body.length === 0) return done(null, undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return done(new GatewayError('invalid_request', 'request body is not valid JSON'));
  }
  if (exceedsJsonDepth(parsed)) {
    return done(new GatewayError('invalid_request', `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`));
  }
  done(null, parsed);
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    // Per-request log lines cost on the hot path; request logs go to the database instead.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: errors are logged with their request id explicitly.
    childLoggerFactory: (logger) => logger,
    bodyLimit: ctx.settings.maxBodyBytes,
    genReqId: newRequestId,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    keepAliveTimeout: 65_000,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'buffer' }, parseJsonBody);
  // Clients that omit or misstate the content type still send JSON; parse it the same way.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parseJsonBody);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
    reply.header('x-request-id', request.id);
  });

  registerHealthRoutes(app, ctx);
  await app.register(async (scope) => registerMessagesRoutes(scope, ctx));
  await app.register(async (scope) => registerResponsesRoutes(scope, ctx));
  await app.register(async (scope) => registerGenerateRoutes(scope, ctx));
  await app.register(async (scope) => registerImageRoutes(scope, ctx), { prefix: '/ig' });
  await app.register(async (scope) => registerVideoRoutes(scope, ctx));
  await app.register(async (scope) => registerAdminRoutes(scope, ctx), { prefix: '/admin' });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ error: { type: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` } });
  });
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = asGatewayError(error);
    if (gatewayError.kind === 'internal') request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    const shown = exposedError(gatewayError, request.id);
    reply.code(shown.status).send({ error: { type: shown.kind, message: shown.message } });
  });
  return app;
}
