/**
 * Same-dialect path: a content-generation client served by a Gemini channel.
 * The client's body goes upstream byte for byte (the model is in the URL, so
 * a channel's model mapping changes only the path) and the answer comes back
 * untouched, whichever form the client asked for (plain, SSE or JSON array).
 */
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import { geminiHeaders, geminiUrl } from '../../gemini/endpoint.js';
import { throwGeminiStatus } from './errors.js';
import { GeminiJsonUsageTap, GeminiSseUsageTap } from './usage-tap.js';

export function geminiPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const method = request.method ?? (request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
  return forwardUntouched(
    {
      url: geminiUrl(call, method),
      headers: geminiHeaders(call),
      body: request.rawBody,
      stream: request.stream,
      sse: method.includes('alt=sse'),
      taps: { sse: () => new GeminiSseUsageTap(), whole: () => new GeminiJsonUsageTap() },
      throwFor: throwGeminiStatus,
    },
    call,
  );
}
