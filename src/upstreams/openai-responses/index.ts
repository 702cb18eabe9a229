/**
 * The `openai-responses` upstream: the OpenAI Responses API (base URL with the
 * `/v1` prefix, e.g. https://api.openai.com/v1; requests go to <base>/responses).
 * Responses clients get the pass-through (the family maps ids and stored
 * state); Messages and content-generation clients are translated. Hosted tools
 * of this dialect are forwarded as they are.
 */
import type { UpstreamAdapter } from '../types.js';
import { responsesCountTokens } from '../protocols/responses/count-tokens.js';
import { prepareOpenAiResponses, type OpenAiResponsesPrepared } from '../protocols/responses/convert-request.js';
import type { OpenAiResponsesSettings } from './settings.js';
import { responsesChat } from '../protocols/responses/chat.js';
import { responsesPassThrough } from '../protocols/responses/pass-through.js';

export const openAiResponsesAdapter: UpstreamAdapter<OpenAiResponsesSettings, OpenAiResponsesPrepared> = {
  type: 'openai-responses',
  nativeDialect: 'responses',
  prepare: prepareOpenAiResponses,
  chat: responsesChat,
  passThrough: responsesPassThrough,
  countTokens: responsesCountTokens,
};
