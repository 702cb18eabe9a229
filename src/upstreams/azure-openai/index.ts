/**
 * The `azure-openai` upstream: an Azure OpenAI / Azure AI Foundry resource,
 * spoken by the Chat Completions protocol and the Responses protocol at this
 * type's endpoints (endpoint.ts). A filtered prompt becomes the translated
 * client's refusal (content-filter.ts).
 */
import { chatCompletionsProtocol } from '../protocols/chat-completions/index.js';
import { responsesProtocol } from '../protocols/responses/index.js';
import { withContentFilterRefusal } from './content-filter.js';
import { azureChatEndpoint, azureResponsesEndpoint } from './endpoint.js';

export const azureChatCompletionsAdapter = withContentFilterRefusal(chatCompletionsProtocol(azureChatEndpoint));

export const azureResponsesAdapter = withContentFilterRefusal(responsesProtocol(azureResponsesEndpoint));

// Provisional: the Chat Completions protocol alone, until the channel is composed of both protocols.
export const azureOpenAiAdapter = azureChatCompletionsAdapter;
