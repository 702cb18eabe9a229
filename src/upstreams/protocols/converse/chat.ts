/** Translation path: a ChatRequest served by Bedrock's Converse API, at its endpoint; streams are AWS event streams. */
import type { ChatRequest } from '../../../core/chat.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import { readEventStream } from '../../aws-event-stream.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { requestOk } from '../../http.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestJsonOk } from '../../whole-answer.js';
import type { ConversePrepared } from './convert-request.js';
import { fromConverseResponse } from './convert-response.js';
import { converseEvents } from './convert-stream.js';
import type { ConverseEndpoint } from './endpoint.js';
import type { ConverseSettings } from './settings.js';
import type { ConverseResponse } from './wire.js';

export function converseChat<S extends ConverseSettings>(endpoint: ConverseEndpoint<S>) {
  const send = async (headers: RequestHeaders, { body }: ConversePrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => {
    const url = endpoint.url(call, request.stream);
    const text = translatedBody(endpoint, body, call);
    const exchange = callExchange(call, url, endpoint.sign ? await endpoint.sign(call, url, headers, text) : headers, text, endpoint.throwStatus);
    const limits = limitsOf(call);
    if (request.stream) {
      const streamed = (await requestOk(exchange)).body;
      return { stream: true, events: converseEvents(readEventStream(streamed, limits), call.upstreamModel, call.signal) };
    }
    // A plain answer is gathered whole, with no body stream (whole-answer.ts).
    const json = await requestJsonOk<ConverseResponse>(exchange, limits.maxBodyBytes);
    return { stream: false, response: fromConverseResponse(json, call.upstreamModel) };
  };
  return (prepared: ConversePrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => whenHeaders(endpoint.headers(call, request.stream), send, prepared, request, call);
}
