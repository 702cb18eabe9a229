/**
 * The `openai-responses` upstream: the OpenAI Responses API (base URL with the
 * `/v1` prefix, e.g. https://api.openai.com/v1; requests go to <base>/responses).
 * Responses clients get the pass-through (the family maps ids and stored
 * state); Messages and content-generation clients are translated. Hosted tools
 * of this dialect are forwarded as they are.
 */
import type { UpstreamAdapter } from '../types.js';
import { responsesCountTokens } from './count-tokens.js';
import { planOpenAiResponses } from './capabilities.js';
import { responsesChat } from './chat.js';
import { responsesPassThrough } from './pass-through.js';

export const openAiResponsesAdapter: UpstreamAdapter = {
  type: 'openai-responses',
  nativeDialect: 'responses',
  plan: planOpenAiResponses,
  chat: responsesChat,
  passThrough: responsesPassThrough,
  countTokens: responsesCountTokens,
};
