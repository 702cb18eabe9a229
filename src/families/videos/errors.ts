/**
 * The two error shapes of family B. `/v1/videos`: `{error: {message, type,
 * param, code}}`. `/v1/video/generations`: `{code: null, message, param,
 * type}`. The type is `invalid_request_error` for client errors and
 * `server_error` for gateway or upstream failures, which answer 500 as the
 * spec lists; 429 keeps its status and `retry-after`.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { asGatewayError } from '../../server/app.js';

export interface RenderedError {
  status: number;
  type: string;
  message: string;
  param: string | null;
  headers?: Record<string, string>;
}

export function describeError(error: GatewayError): RenderedError {
  const headers = error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
  const param = error.param ?? null;
  if (error.status >= 500) return { status: 500, type: 'server_error', message: error.message, param, headers };
  if (error.status === 429) return { status: 429, type: 'rate_limit_error', message: error.message, param, headers };
  return { status: error.status, type: 'invalid_request_error', message: error.message, param, headers };
}

export const videosErrorBody = (rendered: RenderedError) => ({
  error: { message: rendered.message, type: rendered.type, param: rendered.param, code: null },
});

export const generationsErrorBody = (rendered: RenderedError) => ({
  code: null,
  message: rendered.message,
  param: rendered.param ?? '',
  type: rendered.type,
});

/** Every error of a scope (thrown, unknown route, Fastify's own) leaves in the given shape. */
export function installErrorShape(app: FastifyInstance, body: (rendered: RenderedError) => unknown): void {
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = asGatewayError(error);
    if (gatewayError.kind === 'internal') request.log.error({ err: error }, 'unhandled error');
    const rendered = describeError(gatewayError);
    if (rendered.headers) reply.headers(rendered.headers);
    reply.code(rendered.status).type('application/json').send(JSON.stringify(body(rendered)));
  });
  app.setNotFoundHandler((request, reply) => {
    const rendered = describeError(new GatewayError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`));
    reply.code(rendered.status).type('application/json').send(JSON.stringify(body(rendered)));
  });
}
