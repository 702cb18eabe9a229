/**
 * The Chat Completions protocol: speaking that dialect to an upstream, at the
 * endpoint a provider supplies (openai-chat today). Chat Completions clients
 * get the pass-through path; other families are translated, and then it
 * honours no optional features (the internal answer has no place for
 * logprobs or several candidates) and runs no builtin tools. Legacy
 * Completions clients get the pass-through to the server's `/completions`
 * where the endpoint offers it and the channel declares it (completions.ts);
 * rerank and moderations clients the pass-through to the server's own
 * endpoints the same way (plain-pass-through.ts).
 */
import { servingOf } from '../../endpoint.js';
import type { UpstreamAdapter } from '../../types.js';
import { chatCompletionsChat } from './chat.js';
import { prepareChatCompletions, type ChatCompletionsPrepared } from './convert-request.js';
import { chatCompletionsEmbeddings } from './embed.js';
import type { ChatCompletionsEndpoint } from './endpoint.js';
import { chatCompletionsPassThrough } from './pass-through.js';
import { completionsNativeFor } from './completions.js';
import type { ChatCompletionsSettings } from './settings.js';
import { plainPassThrough } from '../../plain-pass-through.js';
import { rerankInputTokens } from '../../../dialects/rerank/wire.js';
import { throwChatCompletionsStatus } from './errors.js';
import { imagesPassThrough } from '../../images-pass-through.js';
import { audioPassThrough } from '../../audio-pass-through.js';

export type { ChatCompletionsEndpoint, ChatCompletionsOperation, CompletionsAddress } from './endpoint.js';

/** The adapter of a provider of the Chat Completions dialect, built once around its endpoint. */
export function chatCompletionsProtocol<S extends ChatCompletionsSettings>(endpoint: ChatCompletionsEndpoint<S>): UpstreamAdapter<S, ChatCompletionsPrepared> {
  const { embed, embedPassThrough } = chatCompletionsEmbeddings(endpoint);
  // `reasoning_details` are the service's own, bound to its account: the provider's type is their origin.
  const serving = servingOf(endpoint, endpoint.type);
  const adapter: UpstreamAdapter<S, ChatCompletionsPrepared> = {
    type: endpoint.type,
    nativeDialect: 'chat-completions',
    prepare: (request, options) => prepareChatCompletions(request, options, serving),
    reasoningOrigin: () => serving.reasoningOrigin,
    chat: chatCompletionsChat(endpoint),
    passThrough: chatCompletionsPassThrough(endpoint),
    embed,
    embedPassThrough,
  };
  // A provider whose servers may offer legacy Completions takes them as they are on the channels that declare it.
  if (endpoint.completions) adapter.nativeFor = completionsNativeFor(adapter, endpoint, endpoint.completions);
  // Rerank, moderations and images go to the server's own endpoints as they are, on the channels that declare them.
  if (endpoint.rerank) adapter.rerank = plainPassThrough({ endpoint, address: endpoint.rerank, throwStatus: throwChatCompletionsStatus, inputTokens: rerankInputTokens, what: 'rerank' });
  if (endpoint.moderations)
    adapter.moderations = plainPassThrough({ endpoint, address: endpoint.moderations, throwStatus: throwChatCompletionsStatus, inputTokens: () => undefined, what: 'moderations' });
  if (endpoint.images) adapter.images = imagesPassThrough({ endpoint, address: endpoint.images, throwStatus: throwChatCompletionsStatus });
  if (endpoint.audio) adapter.audio = audioPassThrough({ endpoint, address: endpoint.audio, throwStatus: throwChatCompletionsStatus });
  return adapter;
}
