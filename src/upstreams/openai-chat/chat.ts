/** A ChatRequest served by an OpenAI-compatible chat-completions upstream (base URL includes `/v1`). */
import type { ChatRequest } from '../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../types.js';
import { joinUrl, readJsonBody, requestOk } from '../http.js';
import { throwChatCompletionsStatus } from './errors.js';
import { limitsOf } from '../../core/upstream-limits.js';
import { toChatCompletionRequest } from './convert-request.js';
import { fromChatCompletion } from './convert-response.js';
import { chatSseToEvents } from './convert-stream.js';
import type { ChatCompletion } from '../../dialects/chat-completions/wire.js';

export async function chatCompletionsChat(request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  const body = toChatCompletionRequest(request, call.upstreamModel, call.channel.settings);
  const res = await requestOk({
    url: joinUrl(call.channel.baseUrl, '/chat/completions'),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${call.apiKey}` },
    body: JSON.stringify(body),
    signal: call.signal,
    timeoutMs: call.timeoutMs,
    secrets: [call.apiKey],
    throwStatus: throwChatCompletionsStatus,
  });
  if (request.stream) return { stream: true, events: chatSseToEvents(res.body, call.signal, limitsOf(call)) };
  const json = await readJsonBody<ChatCompletion>(res.body, call.signal, limitsOf(call).maxBodyBytes);
  return { stream: false, response: fromChatCompletion(json, call.upstreamModel) };
}
