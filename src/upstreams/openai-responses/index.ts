/**
 * The `openai-responses` upstream: the OpenAI Responses API (base URL with the
 * `/v1` prefix, e.g. https://api.openai.com/v1; requests go to <base>/responses),
 * spoken by the Responses protocol (protocols/responses/) at this type's endpoint.
 */
import { responsesProtocol } from '../protocols/responses/index.js';
import { openAiResponsesEndpoint } from './endpoint.js';

export const openAiResponsesAdapter = responsesProtocol(openAiResponsesEndpoint);
