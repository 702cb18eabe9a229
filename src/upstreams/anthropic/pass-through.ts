/**
 * Same-dialect path: a Messages client served by an Anthropic channel. The
 * client's bytes go upstream untouched unless the channel maps the model to
 * another name (then the parsed body is re-serialised with the new `model`).
 */
import { joinUrl } from '../http.js';
import { bodyForUpstreamModel, forwardUntouched } from '../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../types.js';
import { messagesHeaders } from './headers.js';
import { MessagesJsonUsageTap, MessagesStreamUsageTap } from './usage-tap.js';

export function messagesPassThrough(request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  return forwardUntouched(
    {
      url: joinUrl(call.channel.baseUrl, '/v1/messages'),
      headers: messagesHeaders(call),
      body: bodyForUpstreamModel(request, call),
      stream: request.stream,
      taps: { sse: () => new MessagesStreamUsageTap(), whole: () => new MessagesJsonUsageTap() },
    },
    call,
  );
}
