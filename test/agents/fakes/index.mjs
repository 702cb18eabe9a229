/**
 * The scripted fake upstreams, by channel type. The cloud types that host
 * another vendor's API (vertex, bedrock: Anthropic's Messages; azure-openai:
 * OpenAI's Responses and Chat Completions) wrap that vendor's fake in their own
 * routes and credentials, and say what their channel needs in `channel`.
 */
import { start as anthropic } from './anthropic.mjs';
import { start as azureOpenai } from './azure-openai.mjs';
import { start as bedrock } from './bedrock.mjs';
import { start as gemini } from './gemini.mjs';
import { start as openaiChat } from './openai-chat.mjs';
import { start as openaiResponses } from './openai-responses.mjs';
import { start as vertex } from './vertex.mjs';

export const FAKES = { anthropic, 'openai-chat': openaiChat, gemini, 'openai-responses': openaiResponses, vertex, 'azure-openai': azureOpenai, bedrock };

/**
 * Starts the fake for a channel type: `{ name, origin, baseUrl, requests, close }`,
 * plus, for a cloud type, `channel`: `{ apiKey, settings, upstreamModel }`
 * (its credential, its type's settings, the one model every requested name maps to).
 */
export function startFake(type, options = {}) {
  const start = FAKES[type];
  if (!start) throw new Error(`no fake upstream for channel type ${type}`);
  return start(options);
}
