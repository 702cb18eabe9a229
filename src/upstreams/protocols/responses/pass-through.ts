/**
 * Same-dialect path: a Responses client served by a channel of the Responses
 * dialect. The client's bytes go upstream untouched unless the channel maps
 * the model to another name (then the parsed body is re-serialised with the
 * new `model`). Mapping response ids and stored state is the family's concern.
 * The routing word `compact` sends the body to the endpoint's `compact`
 * address (`/responses/compact`) instead.
 */
import { nativeBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import { COMPACT_METHOD, type ResponsesEndpoint } from './endpoint.js';
import { throwResponsesStatus } from './errors.js';
import type { ResponsesSettings } from './settings.js';
import { ResponsesJsonUsageTap, ResponsesStreamUsageTap } from './usage-tap.js';

export function responsesPassThrough<S extends ResponsesSettings>(endpoint: ResponsesEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> => whenHeaders(endpoint.headers(call), forward, endpoint, request, call);
}

function forward(headers: RequestHeaders, endpoint: ResponsesEndpoint<ResponsesSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  return forwardUntouched(
    {
      url: endpoint.url(call, request.method === COMPACT_METHOD ? 'compact' : 'responses'),
      headers,
      body: nativeBody(endpoint, request, call),
      stream: request.stream,
      taps: { sse: () => new ResponsesStreamUsageTap(), whole: () => new ResponsesJsonUsageTap() },
      throwFor: throwResponsesStatus,
    },
    call,
  );
}
