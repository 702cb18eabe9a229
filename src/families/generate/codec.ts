/**
 * How the shared chat pipeline speaks the content-generation dialect. The
 * rendering depends on the request (thoughts shown or not, enum output, SSE
 * or JSON-array streaming), so each request gets its own small codec.
 */
import type { ChatCodec } from '../../pipeline/types.js';
import { renderGenerateError } from '../../dialects/generate/errors.js';
import { renderGenerateResponse, type RenderOptions } from './from-core.js';
import { GenerateStreamEncoder } from './stream-encoder.js';
import { exposedError } from '../../core/errors.js';

export interface GenerateCodecOptions extends RenderOptions {
  /** `alt=sse` on a streaming request. */
  sse: boolean;
}

export function generateCodec(opts: GenerateCodecOptions): ChatCodec {
  return {
    family: 'generate',
    dialect: 'generate',
    streamContentType: opts.sse ? 'text/event-stream' : 'application/json; charset=utf-8',
    // Clients of this dialect commonly drop thought parts from the history they send back.
    reasoningTextHidden: true,
    renderResponse: (response, clientModel) => renderGenerateResponse(response, clientModel, opts),
    createStreamEncoder: (clientModel) => new GenerateStreamEncoder({ ...opts, clientModel }),
    renderError: (error, requestId) => renderGenerateError(exposedError(error, requestId)),
  };
}

/** For errors raised before the request was understood (bad path, credentials, body). */
export const plainGenerateCodec = generateCodec({ includeThoughts: false, enumOutput: false, sse: true });
