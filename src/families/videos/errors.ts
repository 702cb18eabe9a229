/**
 * The two error shapes of family B. `/v1/videos`: `{error: {message, type,
 * param, code}}`. `/v1/video/generations`: `{code: null, message, param,
 * type}`. The type is `invalid_request_error` for client errors and
 * `server_error` for gateway or upstream failures, which answer 500 as the
 * spec lists; 429 keeps its status and `retry-after`.
 */
import type { FastifyInstance } from 'fastify';
import { type GatewayError, retryHeaders } from '../../core/errors.js';
import { useFamilyErrors } from '../../http/family-errors.js';

/** What a video error says, before either video shape wraps it. */
export interface VideoErrorParts {
  status: number;
  type: string;
  message: string;
  param: string | null;
  headers?: Record<string, string>;
}

export function describeError(error: GatewayError): VideoErrorParts {
  const headers = error.retryAfterSeconds !== undefined ? retryHeaders(error) : undefined;
  const param = error.param ?? null;
  if (error.status >= 500) return { status: 500, type: 'server_error', message: error.message, param, headers };
  if (error.status === 429) return { status: 429, type: 'rate_limit_error', message: error.message, param, headers };
  return { status: error.status, type: 'invalid_request_error', message: error.message, param, headers };
}

export const videosErrorBody = (rendered: VideoErrorParts) => ({
  error: { message: rendered.message, type: rendered.type, param: rendered.param, code: null },
});

export const generationsErrorBody = (rendered: VideoErrorParts) => ({
  code: null,
  message: rendered.message,
  param: rendered.param ?? '',
  type: rendered.type,
});

/** An error in the shape `body` draws, with its status and headers. */
export function videoErrorRenderer(body: (rendered: VideoErrorParts) => unknown) {
  return (error: GatewayError) => {
    const rendered = describeError(error);
    return { status: rendered.status, headers: rendered.headers, body: body(rendered) };
  };
}

/** Every error of a scope (thrown, Fastify's own) leaves in the given shape; unknown routes get it by path (server/error-shapes.ts). */
export function installErrorShape(app: FastifyInstance, body: (rendered: VideoErrorParts) => unknown): void {
  useFamilyErrors(app, videoErrorRenderer(body));
}
