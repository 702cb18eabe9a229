/** The fields every routed request (a generation or a count) takes from the HTTP request it came in. */
import type { FastifyRequest } from 'fastify';
import type { ClientKey } from '../http/auth.js';

export function callBasics(request: FastifyRequest, key: ClientKey, model: string) {
  return { requestId: request.id, key, clientIp: request.ip, headers: request.headers, model };
}
