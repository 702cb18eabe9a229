/**
 * What a model on Bedrock's Converse API can do with a translated request
 * (see upstreams/plan.ts). Converse is one shape for every model, but a few
 * things go in `additionalModelRequestFields`, whose keys each model family
 * names its own way (top_k, thinking), and only some families cache prompts,
 * so the capabilities follow the model id: a foundation model
 * (`amazon.nova-pro-v1:0`), an inference profile (`us.amazon.nova-pro-v1:0`)
 * or an ARN naming either.
 */
import type { PromptCacheSupport, SamplingParameter, TranslationCapabilities } from '../../plan.js';
import type { ConverseReasoning, ConverseSettings } from './settings.js';

/** The model families whose Converse fields differ. */
export type ConverseFamily = 'anthropic' | 'nova' | 'gpt-oss' | 'other';

export function converseFamily(upstreamModel: string): ConverseFamily {
  if (upstreamModel.includes('anthropic.claude') || upstreamModel.startsWith('claude')) return 'anthropic';
  if (upstreamModel.includes('amazon.nova')) return 'nova';
  if (upstreamModel.includes('openai.gpt-oss')) return 'gpt-oss';
  return 'other';
}

/** Where thinking goes for the model, the channel's `converseReasoning` first. */
export function reasoningField(upstreamModel: string, setting: ConverseReasoning): Exclude<ConverseReasoning, 'auto'> {
  if (setting !== 'auto') return setting;
  const family = converseFamily(upstreamModel);
  if (family === 'anthropic') return 'thinking';
  // Nova 2 models reason; the first Nova generation (nova-pro-v1, nova-lite-v1…) takes no setting.
  if (family === 'nova' && upstreamModel.includes('amazon.nova-2')) return 'reasoningConfig';
  if (family === 'gpt-oss') return 'reasoning_effort';
  return 'none';
}

/** How a family takes top_k, in `additionalModelRequestFields`; absent: it has none on Converse. */
export function topKPlace(family: ConverseFamily): 'top_k' | 'inferenceConfig.topK' | undefined {
  if (family === 'anthropic') return 'top_k';
  if (family === 'nova') return 'inferenceConfig.topK';
  return undefined;
}

/** The families whose prompt cache Converse reaches with `cachePoint` blocks. */
export function cachesPrompts(family: ConverseFamily): boolean {
  return family === 'anthropic' || family === 'nova';
}

const withTopK: ReadonlySet<SamplingParameter> = new Set(['seed', 'presencePenalty', 'frequencyPenalty']);
const withoutTopK: ReadonlySet<SamplingParameter> = new Set(['topK', 'seed', 'presencePenalty', 'frequencyPenalty']);

const cachePoints: PromptCacheSupport = { marks: 'cachePoint blocks (at most 4: the last ones)', key: 'cache points placed by the gateway' };
const clientCachePoints: PromptCacheSupport = { marks: cachePoints.marks };

const base = {
  type: 'bedrock',
  // Converse folds nothing of another dialect: no features, provider-run tools or hints of its own.
  systemTurns: 'mapped',
  adaptiveThinking: 'mapped',
} as const;

/** Capabilities per family and cache setting, built once. */
const table = new Map<string, TranslationCapabilities>();

export function converseCapabilitiesFor(upstreamModel: string, settings: Pick<ConverseSettings, 'cacheBreakpoints'>): TranslationCapabilities {
  const family = converseFamily(upstreamModel);
  const id = `${family}:${settings.cacheBreakpoints}`;
  let caps = table.get(id);
  if (!caps) {
    const promptCache = cachesPrompts(family) ? (settings.cacheBreakpoints ? cachePoints : clientCachePoints) : undefined;
    caps = { ...base, missingSampling: topKPlace(family) ? withTopK : withoutTopK, promptCache };
    table.set(id, caps);
  }
  return caps;
}
