/**
 * Vertex AI's OpenAI-compatible endpoint, for the partner and open models it
 * serves "as a service" only there (Llama, Mistral, DeepSeek, Qwen, gpt-oss…):
 * `POST <origin>/v1/projects/<project>/locations/<location>/endpoints/openapi/chat/completions`
 * with the key's Bearer token, the model named in the body as
 * `<publisher>/<model>` (`meta/llama-4-maverick-17b-128e-instruct-maas`), by
 * the Chat Completions protocol. Google documents it as
 * `projects.locations.endpoints.chat.completions` with the endpoint `openapi`
 * ("Using OpenAI libraries with Vertex AI").
 */
import type { ChatCompletionsEndpoint, ChatCompletionsOperation } from '../protocols/chat-completions/index.js';
import type { UpstreamCall } from '../types.js';
import { locationBase, withBearer } from './endpoint.js';
import { vertexSettingsOf, type VertexSettings } from './settings.js';

const paths: Readonly<Record<ChatCompletionsOperation, string>> = { chat: 'endpoints/openapi/chat/completions', embeddings: 'endpoints/openapi/embeddings' };

export const vertexChatEndpoint: ChatCompletionsEndpoint<VertexSettings> = {
  type: 'vertex',
  serves: 'OpenAI-compatible models',
  settingsOf: vertexSettingsOf,
  url: (call: UpstreamCall, operation: ChatCompletionsOperation) => `${locationBase(call)}${paths[operation]}`,
  headers: (call: UpstreamCall) => withBearer(call, { 'content-type': 'application/json' }),
  // `reasoning_details` are bound to the account that made them, and this part's only.
  reasoningOrigin: 'vertex/chat-completions',
};
