/**
 * Same-dialect path: a Messages client served by a channel of the Messages
 * dialect. The client's bytes go upstream untouched unless the channel maps
 * the model to another name (then the parsed body is re-serialised with the
 * new `model`), with its `anthropic-*` headers unchanged (headers.ts). The
 * request always goes to the endpoint's `messages` address: a client's query
 * string (Claude Code's `?beta=true`) is not forwarded, the betas travel in
 * `anthropic-beta`. A non-2xx answer keeps its status, body and retry
 * headers (errors.ts).
 */
import { nativeBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import { forwardUntouched } from '../../pass-through.js';
import type { PassThroughRequest, PassThroughResult, UpstreamCall } from '../../types.js';
import type { MessagesEndpoint } from './endpoint.js';
import { throwMessagesError } from './errors.js';
import type { MessagesSettings } from './settings.js';
import { MessagesJsonUsageTap, MessagesStreamUsageTap } from './usage-tap.js';

export function messagesPassThrough<S extends MessagesSettings>(endpoint: MessagesEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> => whenHeaders(endpoint.headers(call, 'pass-through'), forward, endpoint, request, call);
}

function forward(headers: RequestHeaders, endpoint: MessagesEndpoint<MessagesSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  const url = endpoint.url(call, 'messages', request.stream);
  const body = nativeBody(endpoint, request, call, 'messages', headers);
  if (endpoint.sign) return endpoint.sign(call, url, headers, body).then((signed) => send(endpoint, url, signed, body, request, call));
  return send(endpoint, url, headers, body, request, call);
}

function send(endpoint: MessagesEndpoint<MessagesSettings>, url: string, headers: RequestHeaders, body: string | Buffer, request: PassThroughRequest, call: UpstreamCall): Promise<PassThroughResult> {
  return forwardUntouched(
    {
      url,
      headers,
      body,
      stream: request.stream,
      reframe: endpoint.sseFrom,
      taps: { sse: () => new MessagesStreamUsageTap(), whole: () => new MessagesJsonUsageTap() },
      // A refusal keeps the upstream's own answer, for a client no other channel can serve.
      throwFor: endpoint.throwStatus ?? throwMessagesError,
    },
    call,
  );
}
