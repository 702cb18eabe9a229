/** What a provider of the Chat Completions dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { UpstreamCall } from '../../types.js';
import type { ChatCompletionChunk } from '../../../dialects/chat-completions/wire.js';
import type { ChatCompletionsSettings } from './settings.js';

/** `chat`: a completion, plain or streamed, and the pass-through; `embeddings`: an embeddings request. */
export type ChatCompletionsOperation = 'chat' | 'embeddings';

export interface ChatCompletionsEndpoint<Settings extends ChatCompletionsSettings> extends Endpoint<Settings> {
  url(call: UpstreamCall, operation: ChatCompletionsOperation): string;
  headers(call: UpstreamCall): EndpointHeaders;
  /**
   * Stream chunks the provider sends that are no completion chunks (Azure's
   * opening `prompt_filter_results`): skipped by the translating reader, and
   * kept from a pass-through client (the taps still see them). `marker` is
   * text such a chunk always holds: only a region of the stream that holds
   * it is decoded to look.
   */
  readonly skippedChunks?: SkippedChunks;
}

export interface SkippedChunks {
  readonly marker: string;
  skips(chunk: ChatCompletionChunk): boolean;
}
