/** Translation path: a ChatRequest (Messages or content-generation client) served by an upstream of the Responses dialect, at its endpoint. */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { ResponsesPrepared } from './convert-request.js';
import { fromResponsesResponse } from './convert-response.js';
import { responsesSseToEvents } from './convert-stream.js';
import type { WireResponse } from '../../../dialects/responses/wire.js';
import { withSessionCacheKey } from '../../openai-prompt-cache.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { ResponsesEndpoint } from './endpoint.js';
import { throwResponsesStatus } from './errors.js';
import type { ResponsesSettings } from './settings.js';

export function responsesChat<S extends ResponsesSettings>(endpoint: ResponsesEndpoint<S>) {
  const send = async (headers: RequestHeaders, prepared: ResponsesPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => {
    // The one per-attempt step: the session's cache key, known once the candidates were placed.
    const body = withSessionCacheKey(prepared.body, call.sessionKey);
    const exchange = callExchange(call, endpoint.url(call, 'responses'), headers, translatedBody(endpoint, body, call), throwResponsesStatus);
    if (request.stream) return { stream: true, events: responsesSseToEvents((await requestOk(exchange)).body, call.signal, limitsOf(call)) };
    // A plain answer is gathered whole, with no body stream (whole-answer.ts).
    const json = await requestJsonOk<WireResponse>(exchange, limitsOf(call).maxBodyBytes);
    return { stream: false, response: fromResponsesResponse(json, call.upstreamModel) };
  };
  return (prepared: ResponsesPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => whenHeaders(endpoint.headers(call), send, prepared, request, call);
}
