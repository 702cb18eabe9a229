/** A ChatRequest served by an upstream of the Chat Completions dialect, at its endpoint. */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { throwChatCompletionsStatus } from './errors.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { ChatCompletionsPrepared } from './convert-request.js';
import { withSessionCacheKey } from '../../openai-prompt-cache.js';
import { fromChatCompletion } from './convert-response.js';
import { chatSseToEvents } from './convert-stream.js';
import type { ChatCompletion } from '../../../dialects/chat-completions/wire.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { ChatCompletionsEndpoint } from './endpoint.js';
import type { ChatCompletionsSettings } from './settings.js';

export function chatCompletionsChat<S extends ChatCompletionsSettings>(endpoint: ChatCompletionsEndpoint<S>) {
  const send = async (headers: RequestHeaders, prepared: ChatCompletionsPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => {
    // The one per-attempt step: the session's cache key, known once the candidates were placed.
    const body = withSessionCacheKey(prepared.body, call.sessionKey);
    const exchange = callExchange(call, endpoint.url(call, 'chat'), headers, translatedBody(endpoint, body, call), throwChatCompletionsStatus);
    if (request.stream) return { stream: true, events: chatSseToEvents((await requestOk(exchange)).body, call.signal, limitsOf(call), endpoint.skippedChunks) };
    // A plain answer is gathered whole, with no body stream (whole-answer.ts).
    const json = await requestJsonOk<ChatCompletion>(exchange, limitsOf(call).maxBodyBytes);
    return { stream: false, response: fromChatCompletion(json, call.upstreamModel) };
  };
  return (prepared: ChatCompletionsPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => whenHeaders(endpoint.headers(call), send, prepared, request, call);
}
