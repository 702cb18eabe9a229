/**
 * Same-dialect path: a Messages client served by an Anthropic channel. The
 * client's bytes go upstream untouched unless the channel maps the model to
 * another name (then the parsed body is re-serialised with the new `model`),
 * with its `anthropic-*` headers unchanged (headers.ts). The request always
 * goes to `<base>/v1/messages`: a client's query string (Claude Code's
 * `?beta=true`) is not forwarded, the betas travel in `anthropic-beta`.
 * A non-2xx answer keeps its status, body and retry headers (errors.ts).
 */
import { joinUrl } from '../../http.js';
import { bodyForUpstreamModel, forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import { throwMessagesError } from './errors.js';
import { passThroughHeaders } from './headers.js';
import { MessagesJsonUsageTap, MessagesStreamUsageTap } from './usage-tap.js';

export function messagesPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  return forwardUntouched(
    {
      url: joinUrl(call.channel.baseUrl, '/v1/messages'),
      headers: passThroughHeaders(call),
      body: bodyForUpstreamModel(request, call),
      stream: request.stream,
      taps: { sse: () => new MessagesStreamUsageTap(), whole: () => new MessagesJsonUsageTap() },
      // A refusal keeps the upstream's own answer, for a client no other channel can serve.
      throwFor: throwMessagesError,
    },
    call,
  );
}
