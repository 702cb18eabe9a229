/**
 * What the `openai-chat` upstream can do with a translated request (see
 * upstreams/plan.ts); convert-request.ts and convert-messages.ts decide each
 * field by it as they build the body.
 */
import type { ChatCompletionsSettings } from './settings.js';
import { openAiPromptCacheSupport, promptCacheFieldsOn } from '../../openai-prompt-cache.js';
import type { TranslationCapabilities } from '../../plan.js';

export const openAiChatCapabilities: TranslationCapabilities = {
  dialect: 'chat-completions',
  missingSampling: new Set(['topK']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

// Built once: prepare runs on every translated request, and a spread of the table there is an allocation per request.
const withCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({}) };
const withoutCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({ promptCacheKey: false }) };
export const openAiChatCapabilitiesFor = (settings: ChatCompletionsSettings): TranslationCapabilities => (promptCacheFieldsOn(settings) ? withCacheFields : withoutCacheFields);
