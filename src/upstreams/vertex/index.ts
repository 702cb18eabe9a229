/**
 * The `vertex` upstream: Google Vertex AI. Google's models are spoken to by
 * the content-generation protocol (protocols/generate/), Anthropic's (model
 * names starting `claude`) by the Messages protocol (protocols/messages/),
 * each at this type's endpoint for it (endpoint.ts). Vertex has no
 * `batchEmbedContents`, so the content-generation side offers no embeddings.
 */
import { generateProtocol } from '../protocols/generate/index.js';
import { messagesProtocol } from '../protocols/messages/index.js';
import { vertexGenerateEndpoint, vertexMessagesEndpoint } from './endpoint.js';

const { embed: _noEmbeddings, ...generateSide } = generateProtocol(vertexGenerateEndpoint);

/** Google's models on Vertex. */
export const vertexGenerateAdapter = generateSide;
/** Anthropic's models on Vertex. */
export const vertexMessagesAdapter = messagesProtocol(vertexMessagesEndpoint);

/** Whether a model is Anthropic's on Vertex, served by the Messages protocol. */
export function isAnthropicModel(upstreamModel: string): boolean {
  return upstreamModel.startsWith('claude');
}
