/**
 * Same-dialect path: a Responses client served by an OpenAI Responses
 * channel. The client's bytes go upstream untouched unless the channel maps
 * the model to another name (then the parsed body is re-serialised with the
 * new `model`). Mapping response ids and stored state is the family's concern.
 */
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../types.js';
import { firstHeader, isSuccess, throwForStatus, upstreamRequest } from '../http.js';
import { responsesHeaders, responsesUrl } from './headers.js';
import { ResponsesJsonUsageTap, ResponsesStreamUsageTap } from './usage-tap.js';

export async function responsesPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const body =
    request.body.model === call.upstreamModel ? request.rawBody : JSON.stringify({ ...request.body, model: call.upstreamModel });
  const res = await upstreamRequest({
    url: responsesUrl(call),
    headers: responsesHeaders(call),
    body,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
  });
  // Before any byte reaches the client: the router may still fail over.
  if (!isSuccess(res.status)) await throwForStatus(res.status, res.headers, res.body, [call.apiKey]);

  const contentType = firstHeader(res.headers, 'content-type') ?? (request.stream ? 'text/event-stream' : 'application/json');
  const tap = contentType.startsWith('text/event-stream') ? new ResponsesStreamUsageTap() : new ResponsesJsonUsageTap();
  return {
    status: res.status,
    contentType,
    body: tap.pipe(res.body, call.signal),
    usage: () => tap.usage,
    responseId: () => tap.id,
  };
}
