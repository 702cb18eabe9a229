/**
 * Every family answers errors in its own shape. This installs a family's
 * renderer as the error handler of its route scope, so no error leaves in
 * another family's shape. Unknown routes are answered at the root, by path
 * (see error-shapes.ts), since most families share the `/v1` prefix.
 */
import type { FastifyInstance } from 'fastify';
import { exposedError, type GatewayError } from '../core/errors.js';
import { asGatewayError } from './fastify-errors.js';

/** A family's error answer: status, body in its own shape, extra headers. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorRenderer = (error: GatewayError, requestId: string) => RenderedError;

export function useFamilyErrors(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = asGatewayError(error);
    if (gatewayError.kind === 'internal') request.log.error({ err: error, requestId: request.id }, 'unhandled error');
    const rendered = render(exposedError(gatewayError, request.id), request.id);
    if (rendered.headers) reply.headers(rendered.headers);
    reply.code(rendered.status).type('application/json').send(JSON.stringify(rendered.body));
  });
}
