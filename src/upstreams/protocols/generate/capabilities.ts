/**
 * What the `gemini` upstream can do with a translated request (see
 * upstreams/plan.ts), its content-generation features listed once:
 * convert-request.ts decides and places each by `geminiFeatures`.
 */
import type { GenerateFeature } from '../../../dialects/generate/features.js';
import type { TranslationCapabilities } from '../../plan.js';
import { geminiBuiltinTools } from './builtin-tools.js';

/**
 * Every feature of the content-generation dialect: where a translated
 * request's value goes (the request body or its `generationConfig`), or why
 * translation cannot honour it (its result has no place in the internal answer).
 * A feature the dialect gains fails typecheck here until it is placed.
 */
export const geminiFeatures: Readonly<Record<GenerateFeature, { where: 'body' | 'generationConfig' } | { refused: string }>> = {
  candidateCount: { refused: 'the translated answer holds one candidate' },
  logprobs: { refused: 'the translated answer carries no log probabilities' },
  responseModalities: { refused: 'the translated answer carries text only' },
  speechConfig: { refused: 'the translated answer carries no audio' },
  imageConfig: { refused: 'the translated answer carries no images' },
  videoMetadata: { refused: 'per-part video settings are not carried by the internal request' },
  cachedContent: { where: 'body' },
  safetySettings: { where: 'body' },
  serviceTier: { where: 'body' },
  store: { where: 'body' },
  continuationToken: { where: 'body' },
  mediaResolution: { where: 'generationConfig' },
  enableEnhancedCivicAnswers: { where: 'generationConfig' },
  audioTimestamp: { where: 'generationConfig' },
};

/** Where a feature goes, or why it is refused; undefined for a name the dialect does not have. */
export function geminiFeature(name: string): (typeof geminiFeatures)[GenerateFeature] | undefined {
  return Object.hasOwn(geminiFeatures, name) ? geminiFeatures[name as GenerateFeature] : undefined;
}

export const geminiCapabilities: TranslationCapabilities = {
  dialect: 'generate',
  // Content-generation features that only shape the request are forwarded; answer-shaping ones are refused.
  features: { has: (name) => 'where' in (geminiFeature(name) ?? {}) },
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
