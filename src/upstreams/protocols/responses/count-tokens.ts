/**
 * Counting for a Responses client on an OpenAI Responses channel: the
 * client's body (model name mapped) goes to `<base>/responses/input_tokens`;
 * the answer is `{"object": "response.input_tokens", "input_tokens": N}`.
 */
import { requestCount, integerField } from '../../count-tokens.js';
import { joinUrl } from '../../http.js';
import { bodyForUpstreamModel } from '../../pass-through.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { DEFAULT_OPENAI_BASE_URL, responsesHeaders } from '../../openai-responses/endpoint.js';

export function responsesCountTokens(request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: joinUrl(call.channel.baseUrl || DEFAULT_OPENAI_BASE_URL, '/responses/input_tokens'),
      headers: responsesHeaders(call),
      body: bodyForUpstreamModel(request, call),
      readCount: (answer) => integerField(answer, 'input_tokens'),
    },
    call,
  );
}
