/**
 * What the `gemini` upstream can do with a translated request, and its
 * translation plan (see upstreams/plan.ts).
 */
import type { ChatRequest } from '../../core/chat.js';
import { generateFeatureKeys } from '../../dialects/generate/features.js';
import type { PlanBuilder, TranslationPlan } from '../../core/translation-plan.js';
import { planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';
import { geminiBuiltinTools } from './builtin-tools.js';

/** Features whose result has no place in the internal answer, so translation cannot honour them. */
export const answerShapingFeatures: Record<string, string> = {
  candidateCount: 'the translated answer holds one candidate',
  logprobs: 'the translated answer carries no log probabilities',
  responseModalities: 'the translated answer carries text only',
  speechConfig: 'the translated answer carries no audio',
  imageConfig: 'the translated answer carries no images',
  videoMetadata: 'per-part video settings are not carried by the internal request',
};

export const geminiCapabilities: TranslationCapabilities = {
  type: 'gemini',
  dialect: 'generate',
  // Content-generation features that only shape the request are forwarded; answer-shaping ones are refused below.
  features: new Set(generateFeatureKeys.filter((key) => !(key in answerShapingFeatures))),
  builtinTools: geminiBuiltinTools,
  // Other dialects' search, URL-fetch and code-execution tools run as Gemini's own (convert-request.ts builds them).
  builtinCapabilities: new Set(['web_search', 'web_fetch', 'code_execution']),
  systemTurns: 'mapped',
  adaptiveThinking: 'mapped',
  // Gemini 2.5 and newer cache prompt prefixes by themselves (implicit caching), which a
  // breakpoint or a key asks for. Explicit `cachedContents` are not created: they are
  // billed per hour of storage, need a minimum size and a deletion, for a gain implicit
  // caching already gives. Its lifetime is Gemini's own: a retention is ignored.
  promptCache: { marks: 'implicit prefix caching', key: 'implicit prefix caching' },
};

function geminiRules(request: ChatRequest, plan: PlanBuilder): void {
  for (const name of Object.keys(request.features?.generate ?? {})) {
    const reason = answerShapingFeatures[name];
    if (reason) plan.refused(name, `cannot honour it by translation: ${reason}`);
  }
}

export function planGemini(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, geminiCapabilities, options, geminiRules);
}
