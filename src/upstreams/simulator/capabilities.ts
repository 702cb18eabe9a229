/**
 * What the built-in simulator does with a request (see upstreams/plan.ts).
 * It computes answers from the internal request itself, so its prepared
 * "body" is that request: sampling parameters have nothing to act on,
 * provider-run tools and dialect features do not exist, and system turns
 * are read with the system prompt.
 */
import type { ChatRequest } from '../../core/chat.js';
import {
  decideAdaptiveThinking,
  decideFeatures,
  decideHints,
  decidePromptCache,
  decideSampling,
  decideSystemTurns,
  decideTools,
  preparing,
  type Prepared,
  type PrepareOptions,
  type TranslationCapabilities,
} from '../plan.js';

export const simulatorCapabilities: TranslationCapabilities = {
  missingSampling: new Set(['topK', 'seed', 'presencePenalty', 'frequencyPenalty']),
  systemTurns: 'mapped',
  adaptiveThinking: 'mapped',
};

/** The request the simulator answers, as it came. */
export type SimulatorPrepared = Prepared<ChatRequest>;

export function prepareSimulator(request: ChatRequest, options: PrepareOptions<unknown>): SimulatorPrepared {
  return preparing<SimulatorPrepared>('simulator', options.strict, (plan) => {
    const caps = simulatorCapabilities;
    decideSystemTurns(request, caps, plan);
    decideAdaptiveThinking(request, caps, plan);
    decideSampling(request, caps, plan);
    decideTools(request, caps, plan);
    decideFeatures(request, caps, plan);
    decideHints(request, caps, plan);
    decidePromptCache(request, caps.promptCache, plan);
    return { body: request };
  });
}
