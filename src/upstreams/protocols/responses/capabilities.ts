/**
 * What the `openai-responses` upstream can do with a translated request (see
 * upstreams/plan.ts); convert-request.ts decides each field by it as it
 * builds the body.
 */
import type { ResponsesSettings } from './settings.js';
import { openAiPromptCacheSupport, promptCacheFieldsOn } from '../../openai-prompt-cache.js';
import type { TranslationCapabilities } from '../../plan.js';

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
  dialect: 'responses',
  builtinTools: responsesHostedTools,
  // Web search tools of other dialects run as the service's own `web_search` tool.
  builtinCapabilities: new Set(['web_search']),
  missingSampling: new Set(['topK', 'seed']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

// Built once: prepare runs on every translated request, and a spread of the table there is an allocation per request.
const withCacheFields: TranslationCapabilities = { ...openAiResponsesCapabilities, promptCache: openAiPromptCacheSupport({}) };
const withoutCacheFields: TranslationCapabilities = { ...openAiResponsesCapabilities, promptCache: openAiPromptCacheSupport({ promptCacheKey: false }) };
export const openAiResponsesCapabilitiesFor = (settings: ResponsesSettings): TranslationCapabilities => (promptCacheFieldsOn(settings) ? withCacheFields : withoutCacheFields);
