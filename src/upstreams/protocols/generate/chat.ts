/** Translation path: a ChatRequest served by an upstream of the content-generation dialect (streams always use `alt=sse`). */
import type { ChatRequest } from '../../../core/chat.js';
import type { ChatResult, UpstreamCall } from '../../types.js';
import { requestOk } from '../../http.js';
import { requestJsonOk } from '../../whole-answer.js';
import { limitsOf } from '../../../core/upstream-limits.js';
import type { GeneratePrepared } from './convert-request.js';
import { fromGeminiResponse } from './convert-response.js';
import { geminiSseToEvents } from './convert-stream.js';
import { throwGeminiStatus } from './errors.js';
import type { GeminiResponse } from '../../../dialects/generate/wire.js';
import { callExchange } from '../../call-exchange.js';
import { translatedBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { GenerateEndpoint } from './endpoint.js';
import type { GenerateSettings } from './settings.js';

export function generateChat<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>) {
  const send = async (headers: RequestHeaders, { body }: GeneratePrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => {
    const url = endpoint.url(call, request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
    const exchange = callExchange(call, url, headers, translatedBody(endpoint, body, call), throwGeminiStatus);
    const opts = { keepTextSignatures: request.thinking?.enabled === true };
    if (request.stream) return { stream: true, events: geminiSseToEvents((await requestOk(exchange)).body, opts, call.signal, limitsOf(call)) };
    // A plain answer is gathered whole, with no body stream (whole-answer.ts).
    const json = await requestJsonOk<GeminiResponse>(exchange, limitsOf(call).maxBodyBytes);
    return { stream: false, response: fromGeminiResponse(json, call.upstreamModel, opts) };
  };
  return (prepared: GeneratePrepared, request: ChatRequest, call: UpstreamCall): Promise<ChatResult> => whenHeaders(endpoint.headers(call), send, prepared, request, call);
}
