/** A ChatRequest served by an OpenAI-compatible chat-completions upstream (base URL includes `/v1`). */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { joinUrl, requestOk } from '../../http.js';
import { chatCompletionsHeaders } from '../../openai-chat/endpoint.js';
import { requestJsonOk } from '../../whole-answer.js';
import { throwChatCompletionsStatus } from './errors.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { OpenAiChatPrepared } from './convert-request.js';
import { withSessionCacheKey } from '../../openai-prompt-cache.js';
import { fromChatCompletion } from './convert-response.js';
import { chatSseToEvents } from './convert-stream.js';
import type { ChatCompletion } from '../../../dialects/chat-completions/wire.js';
import { callExchange } from '../../call-exchange.js';

export async function chatCompletionsChat(prepared: OpenAiChatPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  // The one per-attempt step: the session's cache key, known once the candidates were placed.
  const body = withSessionCacheKey(prepared.body, call.sessionKey);
  const exchange = callExchange(call, joinUrl(call.channel.baseUrl, '/chat/completions'), chatCompletionsHeaders(call), JSON.stringify(body), throwChatCompletionsStatus);
  if (request.stream) return { stream: true, events: chatSseToEvents((await requestOk(exchange)).body, call.signal, limitsOf(call)) };
  // A plain answer is gathered whole, with no body stream (whole-answer.ts).
  const json = await requestJsonOk<ChatCompletion>(exchange, limitsOf(call).maxBodyBytes);
  return { stream: false, response: fromChatCompletion(json, call.upstreamModel) };
}
