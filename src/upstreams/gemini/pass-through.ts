/**
 * Same-dialect path: a content-generation client served by a Gemini channel.
 * The client's body goes upstream byte for byte (the model is in the URL, so
 * a channel's model mapping changes only the path) and the answer comes back
 * untouched, whichever form the client asked for (plain, SSE or JSON array).
 */
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../types.js';
import { firstHeader, isSuccess, upstreamRequest } from '../http.js';
import { geminiHeaders, geminiUrl } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import { GeminiJsonUsageTap, GeminiSseUsageTap } from './usage-tap.js';

export async function geminiPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const method = request.method ?? (request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
  const res = await upstreamRequest({
    url: geminiUrl(call, method),
    headers: geminiHeaders(call),
    body: request.rawBody,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
  });
  // Before any byte reaches the client: the router may still fail over.
  if (!isSuccess(res.status)) await throwGeminiStatus(res.status, res.headers, res.body, [call.apiKey]);

  const sse = method.includes('alt=sse');
  const contentType = firstHeader(res.headers, 'content-type') ?? (sse ? 'text/event-stream' : 'application/json');
  const tap = contentType.startsWith('text/event-stream') ? new GeminiSseUsageTap() : new GeminiJsonUsageTap();
  return {
    status: res.status,
    contentType,
    body: tap.pipe(res.body, call.signal),
    usage: () => tap.usage(),
    responseId: () => tap.id(),
  };
}
