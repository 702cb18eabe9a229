/**
 * Counting for a Responses client on a channel of the Responses dialect: the
 * client's body (model name mapped) goes to the endpoint's `input-tokens`
 * address (`<base>/responses/input_tokens` for openai-responses); the answer
 * is `{"object": "response.input_tokens", "input_tokens": N}`.
 */
import { requestCount, integerField } from '../../count-tokens.js';
import { nativeBody, whenHeaders, type RequestHeaders } from '../../endpoint.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import type { ResponsesEndpoint } from './endpoint.js';
import { throwResponsesStatus } from './errors.js';
import type { ResponsesSettings } from './settings.js';

export function responsesCountTokens<S extends ResponsesSettings>(endpoint: ResponsesEndpoint<S>) {
  return (request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> => whenHeaders(endpoint.headers(call), send, endpoint, request, call);
}

function send(headers: RequestHeaders, endpoint: ResponsesEndpoint<ResponsesSettings>, request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: endpoint.url(call, 'input-tokens'),
      headers,
      body: nativeBody(endpoint, request, call),
      readCount: (answer) => integerField(answer, 'input_tokens'),
      throwFor: throwResponsesStatus,
    },
    call,
  );
}
