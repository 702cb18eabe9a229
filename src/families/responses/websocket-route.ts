/**
 * `GET /v1/responses`: the Responses WebSocket transport (see
 * docs/responses-websocket.md). The handshake carries the client key
 * (`Authorization: Bearer`); a refused key is answered before the upgrade,
 * as a 401 in the OpenAI shape. Without an upgrade, or with the transport
 * turned off (`SWITCHYARD_RESPONSES_WEBSOCKET=off`), the answer is 426: the
 * one status from which Codex falls back to HTTP at once instead of retrying
 * the handshake five times. `ws` is loaded at the first handshake, so a
 * gateway that never sees one never loads it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocketServer } from 'ws';
import { GatewayError } from '../../core/errors.js';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import { upgradeOf } from '../../http/upgrade-requests.js';
import type { ResponseRepository } from '../../storage/responses.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { ConnectionResponses } from './connection-responses.js';
import { ResponsesSocketSession } from './socket-session.js';

let server: Promise<WebSocketServer> | undefined;

function socketServer(maxPayload: number): Promise<WebSocketServer> {
  // Compression as the client offers it (Codex asks for permessage-deflate); small events go as they are.
  return (server ??= import('ws').then(({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: { threshold: 1024 } })));
}

export function registerResponsesWebSocket(app: FastifyInstance, ctx: AppContext, repository: ResponseRepository): void {
  const sessions = new Set<ResponsesSocketSession>();
  const enabled = ctx.settings.responsesWebSocket !== false;

  const handshake = async (request: FastifyRequest, reply: FastifyReply) => {
    const upgrade = upgradeOf(request.raw);
    if (!enabled) return upgradeRefused(reply, 'the Responses WebSocket transport is turned off on this gateway; send turns as POST /v1/responses');
    if (!upgrade || String(request.headers.upgrade).toLowerCase() !== 'websocket') {
      return upgradeRefused(reply, 'GET /v1/responses is the Responses WebSocket: open it with a WebSocket handshake, or send turns as POST /v1/responses');
    }
    const secret = bearerToken(request);
    const authenticated = ctx.auth.authenticate(secret, request.ip);
    if (authenticated instanceof Promise) await authenticated;
    const wss = await socketServer(ctx.settings.maxBodyBytes);
    reply.hijack();
    // What the handshake's access-log line says when the socket closes.
    reply.raw.statusCode = 101;
    wss.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (socket) => {
      const session = new ResponsesSocketSession(socket, {
        ctx,
        repository: new ConnectionResponses(ctx.store.db, repository),
        secret: secret as string,
        clientIp: request.ip,
        headers: request.headers,
        idleMs: ctx.settings.responsesWebSocketIdleMs,
      });
      sessions.add(session);
      socket.once('close', () => sessions.delete(session));
    });
  };

  app.get('/v1/responses', handshake);
  // Before the listener closes: each socket ends after its running turn (the grace period bounds that turn).
  app.addHook('preClose', async () => {
    await Promise.all([...sessions].map((session) => session.shutDown()));
  });
}

function upgradeRefused(reply: FastifyReply, message: string): void {
  const rendered = renderOpenAIError(new GatewayError('invalid_request', message, { status: 426 }));
  reply.code(426).header('upgrade', 'websocket').type('application/json').send(JSON.stringify(rendered.body));
}
