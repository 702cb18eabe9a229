/**
 * What the `openai-chat` upstream can do with a translated request, and its
 * translation plan (see upstreams/plan.ts).
 */
import type { ChatRequest, MediaPart } from '../../core/chat.js';
import type { PlanBuilder, TranslationPlan } from '../../core/translation-plan.js';
import { hasAssistantMedia, hasToolResultMedia, planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';

export const openAiChatCapabilities: TranslationCapabilities = {
  type: 'openai-chat',
  dialect: 'chat-completions',
  missingSampling: new Set(['topK']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

const inlineAudio = new Set(['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3']);

/** Whether a user-turn media part has a chat-completions content part. */
export function chatCompletionsCarries(part: MediaPart): boolean {
  const { mediaType } = part;
  if (mediaType.startsWith('image/') || mediaType.startsWith('text/')) return true;
  if (part.data === undefined) return false;
  return inlineAudio.has(mediaType) || mediaType === 'application/pdf';
}

function openAiChatRules(request: ChatRequest, plan: PlanBuilder): void {
  if (hasAssistantMedia(request)) plan.refused('media in assistant turns', 'carries text only in assistant messages');
  if (hasToolResultMedia(request)) plan.refused('media in tool results', 'carries text only in tool messages');
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'media' && !chatCompletionsCarries(part))
        plan.refused(`media type ${part.mediaType}`, 'accepts images, inline wav/mp3 audio, inline PDF files and text only');
    }
  }
}

export function planOpenAiChat(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, openAiChatCapabilities, options, openAiChatRules);
}
