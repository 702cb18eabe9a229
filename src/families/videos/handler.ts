/**
 * The common frame of every authenticated video route: the key from
 * `Authorization: Bearer`, the request's metadata, and the family's settings,
 * handed to the operation as one context.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.js';
import { bearerToken } from '../../http/credentials.js';
import type { VideoContext } from './service.js';
import type { VideoSettings } from './settings.js';

export type VideoHandler = (vc: VideoContext, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export const publicBaseOf = (ctx: AppContext, request: FastifyRequest): string => ctx.settings.publicUrl ?? `${request.protocol}://${request.host}`;

export function authed(ctx: AppContext, settings: VideoSettings, handler: VideoHandler) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const startedAt = Date.now();
    const key = await ctx.auth.authenticate(bearerToken(request), request.ip);
    const meta = { requestId: request.id, clientIp: request.ip, startedAt, publicBase: publicBaseOf(ctx, request) };
    return handler({ ctx, key, meta, settings }, request, reply);
  };
}

/** Sends a JSON answer in one write. */
export function json(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}
