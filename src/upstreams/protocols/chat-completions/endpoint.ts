/** What a provider of the Chat Completions dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { ChatCompletionsSettings } from './settings.js';

/** `chat`: a completion, plain or streamed, and the pass-through; `embeddings`: an embeddings request. */
export type ChatCompletionsOperation = 'chat' | 'embeddings';

export interface ChatCompletionsEndpoint<Settings extends ChatCompletionsSettings> extends Endpoint<Settings> {
  url(call: UpstreamCall, operation: ChatCompletionsOperation): string;
  headers(call: UpstreamCall): EndpointHeaders;
}
