/**
 * Counting for a Messages client on a channel of the Messages dialect: the
 * client's body (model name mapped) goes to the endpoint's `count-tokens`
 * address (`<base>/v1/messages/count_tokens` for anthropic) with the same
 * headers as a translated message (`anthropic-version`, the client's
 * `anthropic-beta`); the answer is `{"input_tokens": N}`.
 */
import { requestCount, integerField } from '../../count-tokens.js';
import { nativeBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import type { MessagesEndpoint } from './endpoint.js';
import { throwMessagesError } from './errors.js';
import type { MessagesSettings } from './settings.js';

export function messagesCountTokens<S extends MessagesSettings>(endpoint: MessagesEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> => whenHeaders(endpoint.headers(call, 'translated'), send, endpoint, request, call);
}

function send(headers: RequestHeaders, endpoint: MessagesEndpoint<MessagesSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: endpoint.url(call, 'count-tokens', false),
      headers,
      body: nativeBody(endpoint, request, call, 'count-tokens'),
      readCount: (answer) => integerField(answer, 'input_tokens'),
      throwFor: endpoint.throwStatus ?? throwMessagesError,
    },
    call,
  );
}
