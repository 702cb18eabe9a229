/**
 * Same-dialect path: a content-generation client served by a channel of that
 * dialect. The client's body goes upstream byte for byte (the model is in the
 * URL, so a channel's model mapping changes only the path; an endpoint with
 * body rules gets it parsed and written again) and the answer comes back
 * untouched, whichever form the client asked for (plain, SSE or JSON array).
 */
import { whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import type { GenerateEndpoint } from './endpoint.js';
import { throwGeminiStatus } from './errors.js';
import type { GenerateSettings } from './settings.js';
import { GeminiJsonUsageTap, GeminiSseUsageTap } from './usage-tap.js';

export function generatePassThrough<S extends GenerateSettings>(endpoint: GenerateEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> => whenHeaders(endpoint.headers(call), forward, endpoint, request, call);
}

function forward(headers: RequestHeaders, endpoint: GenerateEndpoint<GenerateSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const method = request.method ?? (request.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
  return forwardUntouched(
    {
      url: endpoint.url(call, method),
      headers,
      body: endpoint.body ? JSON.stringify(endpoint.body(request.body, call)) : request.rawBody,
      stream: request.stream,
      sse: method.includes('alt=sse'),
      taps: { sse: () => new GeminiSseUsageTap(), whole: () => new GeminiJsonUsageTap() },
      throwFor: throwGeminiStatus,
    },
    call,
  );
}
