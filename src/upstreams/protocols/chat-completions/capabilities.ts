/**
 * What the `openai-chat` upstream can do with a translated request (see
 * upstreams/plan.ts); convert-request.ts and convert-messages.ts decide each
 * field by it as they build the body. A channel's `unsupportedFields` narrow
 * it: penalties and `seed` become sampling parameters it lacks, the others
 * fields it leaves out (`keepsField`).
 */
import type { ChatCompletionsSettings, UnsupportableField } from './settings.js';
import { openAiPromptCacheSupport, promptCacheFieldsOn } from '../../openai-prompt-cache.js';
import type { SamplingParameter, TranslationCapabilities } from '../../plan.js';

export const openAiChatCapabilities: TranslationCapabilities = {
  dialect: 'chat-completions',
  missingSampling: new Set(['topK']),
  systemTurns: 'native',
  adaptiveThinking: 'mapped',
};

// Built once: prepare runs on every translated request, and a spread of the table there is an allocation per request.
const withCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({}) };
const withoutCacheFields: TranslationCapabilities = { ...openAiChatCapabilities, promptCache: openAiPromptCacheSupport({ promptCacheKey: false }) };

const samplingOf: Partial<Record<UnsupportableField, SamplingParameter>> = { seed: 'seed', presence_penalty: 'presencePenalty', frequency_penalty: 'frequencyPenalty' };

// A channel's settings object is parsed once per refresh: its narrowed table is built once for it.
const narrowed = new WeakMap<object, TranslationCapabilities>();

export function openAiChatCapabilitiesFor(settings: ChatCompletionsSettings): TranslationCapabilities {
  const base = promptCacheFieldsOn(settings) ? withCacheFields : withoutCacheFields;
  if (settings.unsupportedFields.length === 0) return base;
  let caps = narrowed.get(settings);
  if (!caps) narrowed.set(settings, (caps = narrow(base, settings.unsupportedFields)));
  return caps;
}

function narrow(base: TranslationCapabilities, fields: readonly UnsupportableField[]): TranslationCapabilities {
  const missingSampling = new Set<SamplingParameter>(base.missingSampling);
  const unsupportedFields = new Set<string>();
  for (const field of fields) {
    const parameter = samplingOf[field];
    if (parameter) missingSampling.add(parameter);
    else unsupportedFields.add(field);
  }
  return { ...base, missingSampling, unsupportedFields };
}
