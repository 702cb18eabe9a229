/**
 * The `azure-openai` upstream: an Azure OpenAI / Azure AI Foundry resource,
 * which offers both OpenAI APIs for a deployment: the Chat Completions
 * protocol and the Responses protocol at this type's endpoints
 * (endpoint.ts), composed into one adapter. A Chat Completions client and a
 * Responses client each pass through to the API it speaks; every other
 * client is translated to the one the channel's `api` setting names. A
 * filtered prompt becomes the translated client's refusal (content-filter.ts).
 * OpenAI image and audio requests go to the deployment's image and audio
 * routes as they are; moderations and rerank, which Azure OpenAI does not
 * offer, are not served (a model of these channels alone is not found for them).
 */
import { multiProtocolAdapter } from '../multi-protocol.js';
import { chatCompletionsProtocol } from '../protocols/chat-completions/index.js';
import { responsesProtocol } from '../protocols/responses/index.js';
import type { UpstreamAdapter } from '../types.js';
import { withContentFilterRefusal } from './content-filter.js';
import { azureChatEndpoint, azureResponsesEndpoint } from './endpoint.js';
import type { AzureOpenAiSettings } from './settings.js';

export const azureChatCompletionsAdapter = withContentFilterRefusal(chatCompletionsProtocol(azureChatEndpoint));

export const azureResponsesAdapter = withContentFilterRefusal(responsesProtocol(azureResponsesEndpoint));

const chatPart = azureChatCompletionsAdapter as unknown as UpstreamAdapter<AzureOpenAiSettings>;
const responsesPart = azureResponsesAdapter as unknown as UpstreamAdapter<AzureOpenAiSettings>;

export const azureOpenAiAdapter = {
  ...multiProtocolAdapter<AzureOpenAiSettings>({
    type: 'azure-openai',
    translatedBy: (_model, settings) => (settings.api === 'responses' ? responsesPart : chatPart),
    nativeBy: (dialect) => (dialect === 'chat-completions' ? chatPart : dialect === 'responses' ? responsesPart : undefined),
    embeddedBy: () => chatPart,
  }),
  // An OpenAI embeddings body goes to the deployment's embeddings route as it is; images and audio to its own routes.
  embedPassThrough: azureChatCompletionsAdapter.embedPassThrough,
  images: azureChatCompletionsAdapter.images,
  audio: azureChatCompletionsAdapter.audio,
};
