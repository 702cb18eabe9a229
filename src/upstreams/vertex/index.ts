/**
 * The `vertex` upstream: Google Vertex AI, one channel for both publishers
 * it serves through the same account. Google's models are spoken to by the
 * content-generation protocol (protocols/generate/), Anthropic's (model names
 * starting `claude`) by the Messages protocol (protocols/messages/), each at
 * this type's endpoint for it (endpoint.ts); `multiProtocolAdapter` makes the
 * two one adapter. Content-generation clients of a Gemini model and Messages
 * clients of a Claude model get the byte-for-byte pass-through; every other
 * client is translated by the model's protocol. Vertex has no
 * `batchEmbedContents`, so the type offers no embeddings.
 */
import type { Dialect } from '../../core/chat.js';
import { multiProtocolAdapter } from '../multi-protocol.js';
import { generateProtocol } from '../protocols/generate/index.js';
import { messagesProtocol } from '../protocols/messages/index.js';
import type { UpstreamAdapter } from '../types.js';
import { vertexGenerateEndpoint, vertexMessagesEndpoint } from './endpoint.js';
import type { VertexSettings } from './settings.js';

const { embed: _noEmbeddings, ...generateSide } = generateProtocol(vertexGenerateEndpoint);

/** Google's models on Vertex. */
export const vertexGenerateAdapter: UpstreamAdapter<VertexSettings> = generateSide as UpstreamAdapter<VertexSettings>;
/** Anthropic's models on Vertex. */
export const vertexMessagesAdapter: UpstreamAdapter<VertexSettings> = messagesProtocol(vertexMessagesEndpoint) as UpstreamAdapter<VertexSettings>;

/** Whether a model is Anthropic's on Vertex, served by the Messages protocol. */
export function isAnthropicModel(upstreamModel: string): boolean {
  return upstreamModel.startsWith('claude');
}

function nativeBy(dialect: Dialect, upstreamModel: string): UpstreamAdapter<VertexSettings> | undefined {
  if (isAnthropicModel(upstreamModel)) return dialect === 'messages' ? vertexMessagesAdapter : undefined;
  return dialect === 'generate' ? vertexGenerateAdapter : undefined;
}

export const vertexAdapter = multiProtocolAdapter<VertexSettings>({
  type: 'vertex',
  translatedBy: (upstreamModel) => (isAnthropicModel(upstreamModel) ? vertexMessagesAdapter : vertexGenerateAdapter),
  nativeBy,
});
