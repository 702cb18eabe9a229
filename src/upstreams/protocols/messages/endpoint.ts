/** What a provider of the Messages dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { MessagesSettings } from './settings.js';

/** `messages`: a message, plain or streamed, and the pass-through; `count-tokens`: a native client's count. */
export type MessagesOperation = 'messages' | 'count-tokens';

/**
 * The headers of a translated request (and a count) carry the client's dated
 * `anthropic-version` and `anthropic-beta`, plus `betas` the translation
 * needs; those of a pass-through, the client's `anthropic-*` headers as they
 * came (headers.ts has both rules; the endpoint adds its credential).
 */
export type MessagesRoute = 'translated' | 'pass-through';

export interface MessagesEndpoint<Settings extends MessagesSettings> extends Endpoint<Settings> {
  /** `stream`: whether a message is asked for as a stream (a provider may address streams apart, e.g. `:streamRawPredict`); false for a count. */
  url(call: UpstreamCall, operation: MessagesOperation, stream: boolean): string;
  headers(call: UpstreamCall, route: MessagesRoute, betas?: readonly string[]): EndpointHeaders;
}
