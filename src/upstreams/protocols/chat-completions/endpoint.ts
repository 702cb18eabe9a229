/** What a provider of the Chat Completions dialect supplies (see src/upstreams/endpoint.ts). */
import type { Endpoint, EndpointHeaders } from '../../endpoint.js';
import type { Channel } from '../../../core/channel.js';
import type { UpstreamCall } from '../../types.js';
import type { ChatCompletionChunk } from '../../../dialects/chat-completions/wire.js';
import type { ChatCompletionsSettings } from './settings.js';
import type { OperationAddress } from '../../plain-pass-through.js';

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
  /** Legacy Completions, where the provider's servers may offer it (completions.ts): absent, every such request is translated through chat. */
  readonly completions?: CompletionsAddress;
  /** Rerank at the server's own endpoint (plain-pass-through.ts), where the provider's servers may have one. */
  readonly rerank?: OperationAddress;
  /** OpenAI's moderations at the server's own endpoint, where the provider's servers may have one. */
  readonly moderations?: OperationAddress;
  /** OpenAI's image endpoints under the server's `<base>/images` (images-pass-through.ts), where the provider's servers may have them. */
  readonly images?: OperationAddress;
  /** OpenAI's audio endpoints under the server's `<base>/audio` (audio-pass-through.ts), where the provider's servers may have them. */
  readonly audio?: OperationAddress;
}

/** Where a channel's server takes legacy Completions as they are, if the channel declares that it does. */
export interface CompletionsAddress {
  offered(channel: Channel): boolean;
  url(call: UpstreamCall): string;
}

export interface SkippedChunks {
  readonly marker: string;
  skips(chunk: ChatCompletionChunk): boolean;
}
