/**
 * What the `openai-responses` upstream can do with a translated request, and
 * its translation plan (see upstreams/plan.ts).
 */
import type { ChatRequest } from '../../core/chat.js';
import type { PlanBuilder, TranslationPlan } from '../../core/translation-plan.js';
import { openAiResponsesSettingsOf, type OpenAiResponsesSettings } from './settings.js';
import { openAiPromptCacheSupport, promptCacheFieldsOn } from '../openai-prompt-cache.js';
import { hasAssistantMedia, hasToolResultMedia, planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';

/**
 * Hosted tools of the Responses dialect (BuiltinTool.kind) this upstream runs
 * itself. New ones appear often, so any snake_case word is accepted, except
 * the dated kinds of the Messages dialect (`web_search_20250305`…), which it cannot run.
 */
export const responsesHostedTools = {
  has(kind: string): boolean {
    return /^[a-z][a-z0-9_]*$/.test(kind) && !/_\d{8}$/.test(kind) && kind !== 'function';
  },
};

export const openAiResponsesCapabilities: TranslationCapabilities = {
  type: 'openai-responses',
  dialect: 'responses',
  builtinTools: responsesHostedTools,
  // Web search tools of other dialects run as the service's own `web_search` tool.
  builtinCapabilities: new Set(['web_search']),
  missingSampling: new Set(['topK', 'seed']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

function openAiResponsesRules(request: ChatRequest, plan: PlanBuilder, options: PlanOptions): void {
  if (request.stopSequences?.length && openAiResponsesSettingsOf(options).dropUnsupportedParams !== true) plan.refused('stop_sequences', 'has no stop sequences');
  if (hasAssistantMedia(request)) plan.refused('media in assistant turns', 'carries text only in assistant messages');
  if (hasToolResultMedia(request)) plan.refused('media in tool results', 'sends tool results as text only');
}

// Built once: a plan runs on every translated request, and a spread of the table there is an allocation per request.
const withCacheFields: TranslationCapabilities = { ...openAiResponsesCapabilities, promptCache: openAiPromptCacheSupport({}) };
const withoutCacheFields: TranslationCapabilities = { ...openAiResponsesCapabilities, promptCache: openAiPromptCacheSupport({ promptCacheKey: false }) };
const capabilitiesFor = (settings: OpenAiResponsesSettings): TranslationCapabilities => (promptCacheFieldsOn(settings) ? withCacheFields : withoutCacheFields);

export function planOpenAiResponses(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, capabilitiesFor(openAiResponsesSettingsOf(options)), options, openAiResponsesRules);
}
