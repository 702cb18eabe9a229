/**
 * Every family answers errors in its own shape. This installs a family's
 * renderer as the error handler of its route scope (and, where a family owns
 * a whole path prefix, as its not-found handler), so no error leaves in
 * another family's shape.
 */
import type { FastifyInstance } from 'fastify';
import { exposedError, GatewayError } from '../core/errors.js';
import { asGatewayError } from './fastify-errors.js';

/** A family's error answer: status, body in its own shape, extra headers. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorRenderer = (error: GatewayError, requestId: string) => RenderedError;

export function useFamilyErrors(app: FastifyInstance, render: ErrorRenderer, options: { notFound?: boolean } = {}): void {
  const send = (reply: Parameters<Parameters<FastifyInstance['setErrorHandler']>[0]>[2], rendered: RenderedError) => {
    if (rendered.headers) reply.headers(rendered.headers);
    reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
  };
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = asGatewayError(error);
    if (gatewayError.kind === 'internal') request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    send(reply, render(exposedError(gatewayError, request.id), request.id));
  });
  if (options.notFound) {
    app.setNotFoundHandler((request, reply) => {
      const error = new GatewayError('not_found', `no route for ${request.method} ${request.url.split('?')[0]}`);
      send(reply, render(error, request.id));
    });
  }
}
