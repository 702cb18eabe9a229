/** Translation path: a ChatRequest served by an upstream of the Messages dialect, at its endpoint. */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { MessagesPrepared } from './convert-request.js';
import { fromMessagesResponse } from './convert-response.js';
import { messagesSseToEvents } from './convert-stream.js';
import type { MessagesResponse } from '../../../dialects/messages/wire.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { MessagesEndpoint } from './endpoint.js';
import type { MessagesSettings } from './settings.js';

export function messagesChat<S extends MessagesSettings>(endpoint: MessagesEndpoint<S>) {
  const send = async (headers: RequestHeaders, { body }: MessagesPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => {
    const url = endpoint.url(call, 'messages', request.stream);
    const text = translatedBody(endpoint, body, call, 'messages', headers);
    const exchange = callExchange(call, url, endpoint.sign ? await endpoint.sign(call, url, headers, text) : headers, text, endpoint.throwStatus);
    if (request.stream) {
      const streamed = (await requestOk(exchange)).body;
      return { stream: true, events: messagesSseToEvents(endpoint.sseFrom ? endpoint.sseFrom(streamed, call) : streamed, call.signal, limitsOf(call)) };
    }
    // A plain answer is gathered whole, with no body stream (whole-answer.ts).
    const json = await requestJsonOk<MessagesResponse>(exchange, limitsOf(call).maxBodyBytes);
    return { stream: false, response: fromMessagesResponse(json, call.upstreamModel) };
  };
  return (prepared: MessagesPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> =>
    whenHeaders(endpoint.headers(call, 'translated', prepared.betas), send, prepared, request, call);
}
