/**
 * What the built-in simulator does with a request, as a translation plan (see
 * upstreams/plan.ts). It computes answers from the internal request, so
 * sampling parameters have nothing to act on and provider-run tools do not exist.
 */
import type { ChatRequest } from '../../core/chat.js';
import type { TranslationPlan } from '../../core/translation-plan.js';
import { planTranslation, type PlanOptions, type TranslationCapabilities } from '../plan.js';

export const simulatorCapabilities: TranslationCapabilities = {
  type: 'simulator',
  missingSampling: new Set(['topK', 'seed', 'presencePenalty', 'frequencyPenalty']),
  systemTurns: 'mapped',
  adaptiveThinking: 'mapped',
};

export function planSimulator(request: ChatRequest, options: PlanOptions): TranslationPlan {
  return planTranslation(request, simulatorCapabilities, options);
}
