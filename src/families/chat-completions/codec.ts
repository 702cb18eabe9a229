/**
 * How the shared chat pipeline speaks Chat Completions, for one request: the
 * stream's usage chunk and the legacy `functions` rendering depend on what
 * the client asked, so the codec is built per request.
 */
import { exposedError } from '../../core/errors.js';
import type { ChatCodec } from '../../pipeline/types.js';
import { renderOpenAIError } from '../../dialects/openai/errors.js';
import { renderCompletion } from './from-core.js';
import { ChatCompletionsStreamEncoder } from './stream-encoder.js';
import type { ValidatedChatRequest } from './validate.js';

export function chatCompletionsCodec(request: ValidatedChatRequest): ChatCodec {
  const legacyFunctions = (request.functions?.length ?? 0) > 0 && !request.tools?.length;
  return {
    family: 'chat-completions',
    dialect: 'chat-completions',
    streamContentType: 'text/event-stream; charset=utf-8',
    renderResponse: (response, clientModel) => renderCompletion(response, { clientModel, legacyFunctions }),
    createStreamEncoder: (clientModel) => new ChatCompletionsStreamEncoder({ clientModel, includeUsage: request.stream_options?.include_usage === true, legacyFunctions }),
    renderError: (error, requestId) => renderOpenAIError(exposedError(error, requestId), 'chat-completions'),
  };
}
