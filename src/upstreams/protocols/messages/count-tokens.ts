/**
 * Counting for a Messages client on an Anthropic channel: the client's body
 * (model name mapped) goes to `<base>/v1/messages/count_tokens` with the same
 * headers as a message (`anthropic-version`, the client's `anthropic-beta`);
 * the answer is `{"input_tokens": N}`.
 */
import { requestCount, integerField } from '../../count-tokens.js';
import { joinUrl } from '../../http.js';
import { bodyForUpstreamModel } from '../../pass-through.js';
import type { CountTokensResult, PassThroughRequest, UpstreamCall } from '../../types.js';
import { throwMessagesError } from './errors.js';
import { messagesHeaders } from './headers.js';

export function messagesCountTokens(request: PassThroughRequest, call: UpstreamCall): Promise<CountTokensResult> {
  return requestCount(
    {
      url: joinUrl(call.channel.baseUrl, '/v1/messages/count_tokens'),
      headers: messagesHeaders(call),
      body: bodyForUpstreamModel(request, call),
      readCount: (answer) => integerField(answer, 'input_tokens'),
      throwFor: throwMessagesError,
    },
    call,
  );
}
