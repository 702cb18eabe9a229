/**
 * Which family's error shape a request path belongs to. Errors raised before
 * any family scope runs (an unknown route, a malformed URL, an over-long path
 * parameter, a header block too large for the HTTP parser) have only the
 * path to go by; each family's prefix picks its shape, anything else gets
 * the OpenAI shape, the one most clients understand.
 */
import { renderAdminError } from '../admin/errors.js';
import { exposedError, type GatewayError } from '../core/errors.js';
import { plainGenerateCodec } from '../families/generate/codec.js';
import { renderError as renderImagesError } from '../families/images/errors.js';
import { messagesCodec } from '../families/messages/codec.js';
import { renderOpenAIError } from '../dialects/openai/errors.js';
import { generationsErrorBody, videoErrorRenderer, videosErrorBody } from '../families/videos/errors.js';
import type { RenderedError } from '../pipeline/types.js';
import type { ErrorRenderer } from '../http/family-errors.js';

const openAiShape: ErrorRenderer = (error) => renderOpenAIError(error);

const shapes: Array<[prefix: string, render: ErrorRenderer]> = [
  ['/v1/messages', (error, requestId) => messagesCodec.renderError(error, requestId)],
  ['/messages', (error, requestId) => messagesCodec.renderError(error, requestId)],
  ['/v1/responses', openAiShape],
  ['/v1beta', (error, requestId) => plainGenerateCodec.renderError(error, requestId)],
  ['/v1/models', (error, requestId) => plainGenerateCodec.renderError(error, requestId)],
  ['/v1/chat', openAiShape],
  ['/v1/embeddings', openAiShape],
  ['/v1/videos', videoErrorRenderer(videosErrorBody)],
  ['/v1/video', videoErrorRenderer(generationsErrorBody)],
  ['/ig', (error) => renderImagesError(error)],
  ['/admin', (error) => renderAdminError(error)],
  ['/console', (error) => renderAdminError(error)],
];

/** The path part of a request target, without its query; never decoded (it may be malformed). */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}

/**
 * The renderer for errors on `url` (a raw request target). Prefixes match
 * whatever the letter case (`/IG/…` is still an image-task path). Under
 * `/v1/models` and `/models`, reads (`GET`: model discovery, the OpenAI
 * shape) differ from posts (content generation, Google's).
 */
export function errorShapeFor(url: string, method = 'POST'): ErrorRenderer {
  const path = pathOf(url).toLowerCase();
  if (method.toUpperCase() === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/') || path === '/models' || path.startsWith('/models/'))) return openAiShape;
  for (const [prefix, render] of shapes) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return render;
  }
  return openAiShape;
}

/** The error as `url`'s family shows it, with internal details replaced by the request id. */
export function renderForPath(url: string, error: GatewayError, requestId: string, method?: string): RenderedError {
  return errorShapeFor(url, method)(exposedError(error, requestId), requestId);
}
