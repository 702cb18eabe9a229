/**
 * Converse's usage and stop reasons in the gateway's terms. Converse counts
 * like the gateway: `inputTokens` is the prompt outside the cache, cache
 * reads and writes are counted apart (`totalTokens`, their sum with the
 * output, is not kept).
 */
import { emptyUsage, type FinishReason, type Usage } from '../../../core/chat.js';
import { randomBase62 } from '../../../core/random.js';
import type { TokenUsage } from './wire.js';

export function usageFromConverse(usage: TokenUsage | null | undefined): Usage {
  const out = emptyUsage();
  if (!usage) return out;
  if (typeof usage.inputTokens === 'number') out.inputTokens = usage.inputTokens;
  if (typeof usage.outputTokens === 'number') out.outputTokens = usage.outputTokens;
  if (typeof usage.cacheReadInputTokens === 'number') out.cacheReadTokens = usage.cacheReadInputTokens;
  if (typeof usage.cacheWriteInputTokens === 'number') out.cacheWriteTokens = usage.cacheWriteInputTokens;
  return out;
}

const byStopReason: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  tool_use: 'tool_use',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  malformed_model_output: 'error',
  malformed_tool_use: 'error',
};

/** Converse `stopReason` → the gateway's finish reason; unknown or missing values become `other`. */
export function finishReasonOf(stopReason: unknown): FinishReason {
  return (typeof stopReason === 'string' && byStopReason[stopReason]) || 'other';
}

/** The stop sequence met, where the model reports it (Claude's `stop_sequence` among the additional response fields). */
export function stopSequenceOf(fields: Record<string, unknown> | undefined): string | null {
  const value = fields?.stop_sequence;
  return typeof value === 'string' ? value : null;
}

/** Converse answers carry no id of their own. */
export const newConverseId = (): string => `msg_bdrk_${randomBase62(24)}`;
