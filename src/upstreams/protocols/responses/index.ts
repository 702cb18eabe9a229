/**
 * The Responses protocol: speaking that dialect to an upstream, at the
 * endpoint a provider supplies (openai-responses today). Responses clients get
 * the pass-through (the family maps ids and stored state); Messages and
 * content-generation clients are translated. Hosted tools of this dialect are
 * forwarded as they are.
 */
import { servingOf } from '../../endpoint.js';
import type { UpstreamAdapter } from '../../types.js';
import { responsesChat } from './chat.js';
import { prepareResponses, type ResponsesPrepared } from './convert-request.js';
import { responsesCountTokens } from './count-tokens.js';
import type { ResponsesEndpoint } from './endpoint.js';
import { responsesPassThrough } from './pass-through.js';
import type { ResponsesSettings } from './settings.js';
import { plainPassThrough } from '../../plain-pass-through.js';
import { throwResponsesStatus } from './errors.js';
import { imagesPassThrough } from '../../images-pass-through.js';
import { audioPassThrough } from '../../audio-pass-through.js';

export { COMPACT_METHOD, type ResponsesEndpoint, type ResponsesOperation } from './endpoint.js';

/** The adapter of a provider of the Responses dialect, built once around its endpoint. */
export function responsesProtocol<S extends ResponsesSettings>(endpoint: ResponsesEndpoint<S>): UpstreamAdapter<S, ResponsesPrepared> {
  // Encrypted reasoning opens only for the account that made it: the provider's type is its origin.
  const serving = servingOf(endpoint, endpoint.type);
  const adapter: UpstreamAdapter<S, ResponsesPrepared> = {
    type: endpoint.type,
    nativeDialect: 'responses',
    prepare: (request, options) => prepareResponses(request, options, serving),
    reasoningOrigin: () => serving.reasoningOrigin,
    chat: responsesChat(endpoint),
    passThrough: responsesPassThrough(endpoint),
    countTokens: responsesCountTokens(endpoint),
  };
  // Moderations and images go to the server's own endpoints as they are, on the channels that declare it.
  if (endpoint.moderations) adapter.moderations = plainPassThrough({ endpoint, address: endpoint.moderations, throwStatus: throwResponsesStatus, inputTokens: () => undefined, what: 'moderations' });
  if (endpoint.images) adapter.images = imagesPassThrough({ endpoint, address: endpoint.images, throwStatus: throwResponsesStatus });
  if (endpoint.audio) adapter.audio = audioPassThrough({ endpoint, address: endpoint.audio, throwStatus: throwResponsesStatus });
  return adapter;
}
