/** Translation path: a ChatRequest served by an Anthropic Messages upstream. */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { joinUrl, requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { AnthropicPrepared } from './convert-request.js';
import { fromMessagesResponse } from './convert-response.js';
import { messagesSseToEvents } from './convert-stream.js';
import { messagesHeaders } from './headers.js';
import type { MessagesResponse } from '../../../dialects/messages/wire.js';
import { callExchange } from '../../call-exchange.js';

export async function messagesChat({ body, betas }: AnthropicPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  const exchange = callExchange(call, joinUrl(call.channel.baseUrl, '/v1/messages'), messagesHeaders(call, betas), JSON.stringify(body));
  if (request.stream) return { stream: true, events: messagesSseToEvents((await requestOk(exchange)).body, call.signal, limitsOf(call)) };
  // A plain answer is gathered whole, with no body stream (whole-answer.ts).
  const json = await requestJsonOk<MessagesResponse>(exchange, limitsOf(call).maxBodyBytes);
  return { stream: false, response: fromMessagesResponse(json, call.upstreamModel) };
}
