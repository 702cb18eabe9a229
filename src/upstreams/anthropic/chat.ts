/** Translation path: a ChatRequest served by an Anthropic Messages upstream. */
import type { ChatRequest } from '../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../types.js';
import { joinUrl, readJsonBody, requestOk } from '../http.js';
import { limitsOf } from '../../core/upstream-limits.js';
import { toMessagesRequest } from './convert-request.js';
import { fromMessagesResponse } from './convert-response.js';
import { messagesSseToEvents } from './convert-stream.js';
import { messagesHeaders } from './headers.js';
import type { MessagesResponse } from '../../dialects/messages/wire.js';

export async function messagesChat(request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  const { body, betas } = toMessagesRequest(request, call.upstreamModel, call.channel.settings);
  const res = await requestOk({
    url: joinUrl(call.channel.baseUrl, '/v1/messages'),
    headers: messagesHeaders(call, betas),
    body: JSON.stringify(body),
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    secrets: [call.apiKey],
  });
  if (request.stream) return { stream: true, events: messagesSseToEvents(res.body, call.signal, limitsOf(call)) };
  const json = await readJsonBody<MessagesResponse>(res.body, call.signal, limitsOf(call).maxBodyBytes);
  return { stream: false, response: fromMessagesResponse(json, call.upstreamModel) };
}
