/**
 * Requests the HTTP parser refuses before the framework sees them: a header
 * block over the limit (431), bytes that are not HTTP (400), a request too
 * slow to arrive (408). Node would answer these with a bare status line and
 * the framework with its own JSON; the gateway answers a minimal, well-formed
 * response in the shape of the family the request line names (when enough of
 * it arrived), with a request id, and closes the connection.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { renderForPath } from './error-shapes.js';
import { newRequestId } from './request-id.js';

/** The header block (request line and headers) may not exceed this many bytes (see README, "Limits"). */
export const MAX_HEADER_BYTES = 16 * 1024;

type ParserError = Error & { code?: string };

const answered = new WeakSet<Socket>();

/** The request target from the first line the parser saw, or `/` when none arrived. */
function requestLine(rawPacket: unknown): { target: string; method?: string } {
  // Node hands the bytes it could not parse to 'clientError' listeners as `rawPacket`.
  if (!Buffer.isBuffer(rawPacket)) return { target: '/' };
  const line = rawPacket.subarray(0, Math.min(rawPacket.length, 8192)).toString('latin1').split('\r\n', 1)[0] ?? '';
  const [method, target] = line.split(' ');
  return { target: target?.startsWith('/') ? target : '/', method };
}

function errorFor(code: string | undefined): GatewayError {
  if (code === 'HPE_HEADER_OVERFLOW') return new GatewayError('invalid_request', `request headers are larger than ${MAX_HEADER_BYTES} bytes`, { status: 431 });
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new GatewayError('invalid_request', 'the request did not arrive in time', { status: 408 });
  return new GatewayError('invalid_request', 'the request is not well-formed HTTP/1.1');
}

export function clientErrorHandler(logger: FastifyBaseLogger) {
  return (error: ParserError, socket: Socket): void => {
    // A reset connection has no one left to answer; an answered one is closing
    // (the parser reports every later chunk of the same bad request again).
    if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
    answered.add(socket);
    const requestId = newRequestId();
    const { target, method } = requestLine((error as { rawPacket?: unknown }).rawPacket);
    const rendered = renderForPath(target, errorFor(error.code), requestId, method);
    logger.info({ requestId, code: error.code }, 'refused a request the HTTP parser could not read');
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      ...rendered.headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'request-id': requestId,
      'x-request-id': requestId,
      connection: 'close',
    };
    const head = `HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? 'Error'}\r\n`;
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    if (!socket.writable) return void socket.destroy();
    // end(), not destroy(): a reset could discard the answer before the client reads it.
    socket.end(`${head}${lines.join('')}\r\n${body}`);
    socket.setTimeout(5_000, () => socket.destroy());
  };
}
