/**
 * What the `anthropic` upstream can do with a translated request, and its
 * translation plan (see upstreams/plan.ts).
 */
import type { ChatRequest } from '../../core/chat.js';
import type { PlanBuilder, TranslationPlan } from '../../core/translation-plan.js';
import { planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';
import { anthropicBuiltinTools } from './builtin-tools.js';

export const anthropicCapabilities: TranslationCapabilities = {
  type: 'anthropic',
  dialect: 'messages',
  builtinTools: anthropicBuiltinTools,
  missingSampling: new Set(['seed', 'presencePenalty', 'frequencyPenalty']),
  systemTurns: 'mapped',
  adaptiveThinking: 'mapped',
};

const mediaTypes = /^(image\/|application\/pdf$|text\/)/;

function anthropicRules(request: ChatRequest, plan: PlanBuilder): void {
  if (request.responseFormat?.type === 'json_object') plan.refused('response_format json_object', 'needs a JSON schema for structured output');
  for (const message of request.messages) {
    for (const part of message.content) {
      const media = part.type === 'media' ? [part] : part.type === 'tool_result' ? part.content.filter((p) => p.type === 'media') : [];
      for (const item of media) {
        if (item.type === 'media' && !mediaTypes.test(item.mediaType)) plan.refused(`media type ${item.mediaType}`, 'accepts images, PDF and plain-text documents only');
      }
    }
  }
}

export function planAnthropic(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, anthropicCapabilities, options, anthropicRules);
}
