/**
 * Same-dialect path: a Responses client served by an OpenAI Responses
 * channel. The client's bytes go upstream untouched unless the channel maps
 * the model to another name (then the parsed body is re-serialised with the
 * new `model`). Mapping response ids and stored state is the family's concern.
 * The routing word `compact` sends the body to `/responses/compact` instead.
 */
import { bodyForUpstreamModel, forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import { COMPACT_METHOD, compactUrl, responsesHeaders, responsesUrl } from '../../openai-responses/endpoint.js';
import { ResponsesJsonUsageTap, ResponsesStreamUsageTap } from './usage-tap.js';

export function responsesPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  return forwardUntouched(
    {
      url: request.method === COMPACT_METHOD ? compactUrl(call) : responsesUrl(call),
      headers: responsesHeaders(call),
      body: bodyForUpstreamModel(request, call),
      stream: request.stream,
      taps: { sse: () => new ResponsesStreamUsageTap(), whole: () => new ResponsesJsonUsageTap() },
    },
    call,
  );
}
