/**
 * How the shared chat pipeline speaks legacy Completions, for one request:
 * the stream's usage chunk depends on what the client asked, so the codec
 * is built per request. Errors take the OpenAI shape.
 */
import { exposedError } from '../../core/errors.js';
import type { ChatCodec } from '../../pipeline/types.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { renderTextCompletion } from './from-core.js';
import { DEFAULT_MAX_TOKENS } from './to-core.js';
import { CompletionsStreamEncoder } from './stream-encoder.js';
import type { ValidatedCompletionsRequest } from './validate.js';

export function completionsCodec(request: ValidatedCompletionsRequest): ChatCodec {
  const includeUsage = request.stream_options?.include_usage === true;
  return {
    family: 'completions',
    dialect: 'completions',
    streamContentType: 'text/event-stream; charset=utf-8',
    // The API's own default output limit, so a key with little quota left is not refused for 4096 tokens it cannot get.
    impliedOutputTokens: DEFAULT_MAX_TOKENS,
    renderResponse: (response, clientModel) => renderTextCompletion(response, clientModel),
    createStreamEncoder: (clientModel) => new CompletionsStreamEncoder({ clientModel, includeUsage }),
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
  };
}
