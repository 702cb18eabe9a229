/**
 * What the `openai-chat` upstream can do with a translated request, and its
 * translation plan (see upstreams/plan.ts).
 */
import type { ChatRequest, MediaPart } from '../../core/chat.js';
import type { PlanBuilder, TranslationPlan } from '../../core/translation-plan.js';
import { openAiChatSettingsOf, type OpenAiChatSettings } from './settings.js';
import { openAiPromptCacheSupport, promptCacheFieldsOn } from '../openai-prompt-cache.js';
import { hasAssistantMedia, hasToolResultMedia, planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';

export const openAiChatCapabilities: TranslationCapabilities = {
  type: 'openai-chat',
  dialect: 'chat-completions',
  missingSampling: new Set(['topK']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

const inlineAudio = new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3']);

/** Whether a user-turn (or tool-result) media part has a chat-completions content part. */
export function chatCompletionsCarries(part: MediaPart): boolean {
  const { mediaType } = part;
  if (mediaType.startsWith('image/') || part.text !== undefined) return true;
  if (part.data === undefined) return false;
  return mediaType.startsWith('text/') || inlineAudio.has(mediaType) || mediaType === 'application/pdf';
}

function openAiChatRules(request: ChatRequest, plan: PlanBuilder): void {
  if (hasAssistantMedia(request)) plan.refused('media in assistant turns', 'carries text only in assistant messages');
  if (hasToolResultMedia(request)) plan.mapped('media in tool results', 'tool messages carry the text; the media follow in a user message after them');
  const refusedTypes = new Set<string>();
  for (const message of request.messages) {
    for (const part of message.content) {
      const media = part.type === 'media' ? [part] : part.type === 'tool_result' ? part.content.filter((inner) => inner.type === 'media') : [];
      for (const item of media) if (!chatCompletionsCarries(item)) refusedTypes.add(item.mediaType);
    }
  }
  for (const type of refusedTypes) plan.refused(`media type ${type}`, 'accepts images, inline wav/mp3 audio, inline PDF files and text only');
}

// Built once: a plan runs on every translated request, and a spread of the table there is an allocation per request.
const withCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({}) };
const withoutCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({ promptCacheKey: false }) };
const capabilitiesFor = (settings: OpenAiChatSettings): TranslationCapabilities => (promptCacheFieldsOn(settings) ? withCacheFields : withoutCacheFields);

export function planOpenAiChat(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, capabilitiesFor(openAiChatSettingsOf(options)), options, openAiChatRules);
}
