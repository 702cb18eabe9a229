/**
 * Assembles the HTTP application: body parsing (once, keeping the raw bytes
 * for pass-through), request ids, health, the API families, the admin API and
 * the web console.
 * Each family registers its routes in its own encapsulated scope with its own
 * error handler, so every error leaves in that family's shape.
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { registerAdminRoutes } from '../admin/routes.js';
import { GatewayError } from '../core/errors.js';
import { registerChatCompletionsRoutes } from '../families/chat-completions/routes.js';
import { registerCompletionsRoutes } from '../families/completions/routes.js';
import { registerGeminiModelRoutes, registerModelRoutes } from '../families/models/routes.js';
import { registerEmbeddingsRoutes } from '../families/embeddings/routes.js';
import { registerRerankRoutes } from '../families/rerank/routes.js';
import { registerModerationsRoutes } from '../families/moderations/routes.js';
import { registerImageGenerationRoutes } from '../families/image-generations/routes.js';
import { registerAudioRoutes } from '../families/audio/routes.js';
import { registerGenerateRoutes } from '../families/generate/routes.js';
import { registerImageRoutes } from '../families/images/routes.js';
import { registerMessagesRoutes } from '../families/messages/routes.js';
import { registerResponsesRoutes } from '../families/responses/routes.js';
import { registerVideoRoutes } from '../families/videos/routes.js';
import { registerFileRoutes } from '../families/files/routes.js';
import { registerBatchRoutes } from '../families/batches/routes.js';
import type { AppContext } from '../http/context.js';
import { registerHealthRoutes } from './health.js';
import { registerObservability } from './observability.js';
import { registerConsole } from './console.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.js';
import { clientErrorHandler, MAX_HEADER_BYTES } from './client-errors.js';
import { pathOf, renderForPath } from './error-shapes.js';
import { asGatewayError, MAX_PATH_PARAM_LENGTH } from '../http/fastify-errors.js';
import { newRequestId } from './request-id.js';
import { drainOversizedBody } from './oversized-body.js';
import { RouteTable } from './route-table.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { proxyTrust } from '../http/trusted-proxies.js';
import { routeUpgradesThrough } from '../http/upgrade-requests.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as received, for the pass-through path. */
    rawBody?: Buffer;
  }
}

export { newRequestId } from './request-id.js';

/** Content types whose bodies the gateway reads as JSON; a body in any other that is not JSON is a 415. */
const JSON_LIKE = /^(application\/([a-z0-9.+-]*\+)?json|text\/plain)\b/i;

function parseJsonBody(request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void): void {
  request.rawBody = body;
  if (body.length === 0) return done(null, undefined);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    const type = request.headers['content-type'];
    if (type && !JSON_LIKE.test(type)) {
      const named = type.split(';')[0]!.trim().slice(0, 100);
      return done(new GatewayError('invalid_request', `unsupported content-type "${named}"; send application/json`, { status: 415 }));
    }
    return done(new GatewayError('invalid_request', 'request body is not valid JSON'));
  }
  if (exceedsJsonDepth(parsed)) {
    return done(new GatewayError('invalid_request', `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`));
  }
  done(null, parsed);
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const trustProxy = proxyTrust(ctx.settings.trustedProxies);
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
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: clientErrorHandler(ctx.logger as FastifyBaseLogger),
    // A malformed URL or an over-long path parameter, refused before routing: answered in the path's family shape.
    frameworkErrors: (error, request, reply) => sendError(request, reply, asGatewayError(error)),
    // Ajv and fast-json-stringify load only if a route ever declares a schema (none does).
    schemaController: { compilersFactory: lazySchemaCompilers },
    // Behind trusted reverse proxies, request.ip is the client's address from X-Forwarded-For.
    ...(trustProxy && { trustProxy }),
  });
  const routes = new RouteTable();
  routes.watch(app);
  // WebSocket handshakes are routed like other requests (the Responses WebSocket); off, Node hands them to the routes as plain GETs.
  if (ctx.settings.responsesWebSocket !== false) routeUpgradesThrough(app.server);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'buffer' }, parseJsonBody);
  // Clients that omit or misstate the content type still send JSON; parse it the same way.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, parseJsonBody);

  // A callback hook, not an async one: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id);
    reply.header('x-request-id', request.id);
    ctx.arrivals.note(request.method, request.url);
    done();
  });
  // Runs before every scope's error handler: a 413 reads the rest of the body before the connection goes.
  app.addHook('onError', async (request, reply, error) => {
    if (asGatewayError(error).kind === 'payload_too_large') drainOversizedBody(request, reply, ctx.settings.maxBodyBytes);
  });

  registerHealthRoutes(app, ctx);
  await registerObservability(app, ctx);
  await app.register(async (scope) => registerMessagesRoutes(scope, ctx));
  await app.register(async (scope) => registerResponsesRoutes(scope, ctx));
  await app.register(async (scope) => registerGenerateRoutes(scope, ctx));
  await app.register(async (scope) => registerChatCompletionsRoutes(scope, ctx));
  await app.register(async (scope) => registerCompletionsRoutes(scope, ctx));
  await app.register(async (scope) => registerModelRoutes(scope, ctx));
  await app.register(async (scope) => registerEmbeddingsRoutes(scope, ctx));
  await app.register(async (scope) => registerRerankRoutes(scope, ctx));
  await app.register(async (scope) => registerModerationsRoutes(scope, ctx));
  await app.register(async (scope) => registerImageGenerationRoutes(scope, ctx));
  await app.register(async (scope) => registerAudioRoutes(scope, ctx));
  await app.register(async (scope) => registerGeminiModelRoutes(scope, ctx));
  await app.register(async (scope) => registerImageRoutes(scope, ctx), { prefix: '/ig' });
  await app.register(async (scope) => registerVideoRoutes(scope, ctx));
  await app.register(async (scope) => registerFileRoutes(scope, ctx));
  await app.register(async (scope) => registerBatchRoutes(scope, ctx));
  await app.register(async (scope) => registerAdminRoutes(scope, ctx), { prefix: '/admin' });
  await registerConsole(app);

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = routes.methodsFor(path);
    // Echo the path, but not kilobytes of it.
    const named = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    if (allowed.length === 0) return sendError(request, reply, new GatewayError('not_found', `no route for ${request.method} ${named}`));
    reply.header('allow', allowed.join(', '));
    sendError(request, reply, new GatewayError('invalid_request', `${request.method} is not allowed on ${named}; use ${allowed.join(' or ')}`, { status: 405 }));
  });
  // Errors outside any family scope (health routes, unknown routes whose body failed to parse).
  app.setErrorHandler((error, request, reply) => sendError(request, reply, asGatewayError(error)));
  return app;
}

/** Answers `error` in the shape of the family `request`'s path belongs to, with the request id. */
function sendError(request: FastifyRequest, reply: FastifyReply, error: GatewayError): void {
  if (error.kind === 'internal') request.log.error({ err: error.cause ?? error, requestId: request.id }, 'unhandled error');
  const rendered = renderForPath(request.url, error, request.id, request.method);
  reply.headers({ ...rendered.headers, 'request-id': request.id, 'x-request-id': request.id });
  reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
}
