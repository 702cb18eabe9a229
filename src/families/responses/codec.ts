/**
 * How the shared chat pipeline speaks the Responses dialect, for one request:
 * the codec holds that request's exchange (its response id, the settings to
 * echo, the recording of the answer), so it is built per request.
 */
import type { ChatCodec } from '../../pipeline/types.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import type { ResponsesExchange } from './exchange.js';
import { ResponsesStreamEncoder } from './stream-encoder.js';
import { CompactionStreamEncoder } from './compaction-stream.js';
import { exposedError } from '../../core/errors.js';

export function responsesCodec(exchange: ResponsesExchange): ChatCodec {
  return {
    family: 'responses',
    dialect: 'responses',
    streamContentType: 'text/event-stream; charset=utf-8',
    // Without summaries a reasoning item shows no text the client could send back.
    reasoningTextHidden: !exchange.summaries,
    renderResponse: (response) => exchange.completePlain(response),
    createStreamEncoder: () => (exchange.compacting ? new CompactionStreamEncoder(exchange) : new ResponsesStreamEncoder(exchange)),
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId)),
  };
}
