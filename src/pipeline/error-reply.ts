/** Sends a family's rendered error: its status, its headers, its body as JSON. */
import type { FastifyReply } from 'fastify';
import type { RenderedError } from './types.js';

export function sendRenderedError(reply: FastifyReply, rendered: RenderedError): void {
  if (rendered.headers) reply.headers(rendered.headers);
  reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
}
