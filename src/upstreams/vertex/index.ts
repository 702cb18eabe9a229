/**
 * The `vertex` upstream: Google Vertex AI, one channel for every publisher
 * it serves through the same account. Google's models are spoken to by the
 * content-generation protocol (protocols/generate/), Anthropic's (model names
 * starting `claude`) by the Messages protocol (protocols/messages/), and the
 * partner and open models of its OpenAI-compatible endpoint (names with a
 * publisher, `meta/llama-…-maas`) by the Chat Completions protocol
 * (protocols/chat-completions/), each at this type's endpoint for it
 * (endpoint.ts, openapi-endpoint.ts); `multiProtocolAdapter` makes them one
 * adapter. Content-generation clients of a Gemini model, Messages clients of
 * a Claude model and Chat Completions clients of an OpenAI-compatible model
 * get the byte-for-byte pass-through; every other client is translated by the
 * model's protocol. Google's embedding models are called by `:predict` (embed.ts).
 * OpenAI audio requests go to Google's models by content generation, as on
 * gemini channels (protocols/generate/audio.ts).
 */
import type { Dialect } from '../../core/chat.js';
import { multiProtocolAdapter } from '../multi-protocol.js';
import { chatCompletionsProtocol } from '../protocols/chat-completions/index.js';
import { generateProtocol } from '../protocols/generate/index.js';
import { messagesProtocol } from '../protocols/messages/index.js';
import { GatewayError } from '../../core/errors.js';
import type { AudioOperation, UpstreamAdapter } from '../types.js';
import { isEmbeddingModel, vertexEmbed } from './embed.js';
import { vertexGenerateEndpoint, vertexMessagesEndpoint } from './endpoint.js';
import { vertexChatEndpoint } from './openapi-endpoint.js';
import type { VertexSettings } from './settings.js';

const { embed: _noEmbeddings, ...generateSide } = generateProtocol(vertexGenerateEndpoint);
// The OpenAI-compatible endpoint is for chat here: embeddings go to `:predict`.
const { embed: _noChatEmbeddings, embedPassThrough: _noEmbedPassThrough, ...chatSide } = chatCompletionsProtocol(vertexChatEndpoint);

/** Google's models on Vertex; its embedding models by `:predict`. */
export const vertexGenerateAdapter: UpstreamAdapter<VertexSettings> = { ...(generateSide as UpstreamAdapter<VertexSettings>), embed: vertexEmbed };
/** Anthropic's models on Vertex. */
export const vertexMessagesAdapter: UpstreamAdapter<VertexSettings> = messagesProtocol(vertexMessagesEndpoint) as UpstreamAdapter<VertexSettings>;
/** The models of Vertex's OpenAI-compatible endpoint. */
export const vertexChatAdapter: UpstreamAdapter<VertexSettings> = chatSide as UpstreamAdapter<VertexSettings>;

/** Whether a model is Anthropic's on Vertex, served by the Messages protocol. */
export function isAnthropicModel(upstreamModel: string): boolean {
  return upstreamModel.startsWith('claude');
}

/** Whether a model is named with its publisher (`meta/llama-4-maverick-17b-128e-instruct-maas`), served by the OpenAI-compatible endpoint; `models/gemini-…` is Gemini's own spelling. */
export function isOpenApiModel(upstreamModel: string): boolean {
  return upstreamModel.includes('/') && !upstreamModel.startsWith('models/');
}

function partFor(upstreamModel: string): UpstreamAdapter<VertexSettings> {
  if (isOpenApiModel(upstreamModel)) return vertexChatAdapter;
  return isAnthropicModel(upstreamModel) ? vertexMessagesAdapter : vertexGenerateAdapter;
}

function nativeBy(dialect: Dialect, upstreamModel: string): UpstreamAdapter<VertexSettings> | undefined {
  const part = partFor(upstreamModel);
  return part.nativeDialect === dialect ? part : undefined;
}

const generateAudio = vertexGenerateAdapter.audio!;

/** OpenAI audio for Google's models, by content generation; another model's channel fails over, it does not refuse (another channel may serve it). */
const vertexAudio: AudioOperation = {
  ...generateAudio,
  serve: (request, call) => {
    if (partFor(call.upstreamModel) !== vertexGenerateAdapter) {
      return Promise.reject(new GatewayError('upstream_error', `the vertex channel makes no audio with ${call.upstreamModel}: only Google's models take audio requests`, { retryable: true }));
    }
    return generateAudio.serve!(request, call);
  },
};

export const vertexAdapter = {
  ...multiProtocolAdapter<VertexSettings>({
    type: 'vertex',
    translatedBy: partFor,
    nativeBy,
    embeddedBy: (upstreamModel) => (isEmbeddingModel(upstreamModel) ? vertexGenerateAdapter : undefined),
  }),
  audio: vertexAudio,
};
