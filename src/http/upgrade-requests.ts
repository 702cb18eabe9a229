/**
 * HTTP upgrade requests (WebSocket handshakes) through the same routes,
 * hooks and error shapes as every other request: with an `upgrade` listener
 * installed, Node hands such requests to it with the raw socket instead of to
 * the request handler, so the listener gives each one a response on that
 * socket and lets the framework route it. A route that accepts the upgrade
 * takes the socket (and the bytes read past the headers) from `upgradeOf`;
 * any other answer goes out on the socket as a plain HTTP response, which
 * then closes. An upgrade to anything but a WebSocket (`h2c`) is served as
 * the plain request it also is (see plain-replay.ts).
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { replayAsPlainRequest } from './plain-replay.js';

export interface PendingUpgrade {
  socket: Duplex;
  /** Bytes the client sent after the handshake's headers, already read from the socket. */
  head: Buffer;
}

const pending = new WeakMap<IncomingMessage, PendingUpgrade>();

export function routeUpgradesThrough(server: Server): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (String(request.headers.upgrade).toLowerCase() !== 'websocket') return replayAsPlainRequest(server, request, socket as Socket, head);
    pending.set(request, { socket, head });
    const response = new ServerResponse(request);
    response.shouldKeepAlive = false;
    response.assignSocket(socket as never);
    response.once('finish', () => socket.end());
    socket.once('error', () => socket.destroy());
    server.emit('request', request, response);
  });
}

/** The socket of an upgrade request, to be taken over once; undefined for a plain request. */
export function upgradeOf(request: IncomingMessage): PendingUpgrade | undefined {
  return pending.get(request);
}
