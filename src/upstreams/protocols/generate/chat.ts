/** Translation path: a ChatRequest served by a Gemini upstream (streams always use `alt=sse`). */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { GeminiPrepared } from './convert-request.js';
import { fromGeminiResponse } from './convert-response.js';
import { geminiSseToEvents } from './convert-stream.js';
import { geminiHeaders, geminiUrl } from '../../gemini/endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GeminiResponse } from '../../../dialects/generate/wire.js';
import { callExchange } from '../../call-exchange.js';

export async function geminiChat({ body }: GeminiPrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> {
  const exchange = callExchange(call, geminiUrl(call, request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'), geminiHeaders(call), JSON.stringify(body), throwGeminiStatus);
  const opts = { keepTextSignatures: request.thinking?.enabled === true };
  if (request.stream) return { stream: true, events: geminiSseToEvents((await requestOk(exchange)).body, opts, call.signal, limitsOf(call)) };
  // A plain answer is gathered whole, with no body stream (whole-answer.ts).
  const json = await requestJsonOk<GeminiResponse>(exchange, limitsOf(call).maxBodyBytes);
  return { stream: false, response: fromGeminiResponse(json, call.upstreamModel, opts) };
}
