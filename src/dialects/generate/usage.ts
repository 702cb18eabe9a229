/**
 * Usage in the content-generation dialect, both ways. Reading an upstream's
 * usageMetadata: Gemini's promptTokenCount includes
 * the cached prompt tokens, and the tool-use prompt (e.g. search results) is
 * counted apart; the gateway's inputTokens excludes cache reads (as in the
 * other adapters), so inputTokens = prompt + tool-use prompt - cached.
 * Thoughts are counted apart from candidates; the gateway's outputTokens
 * includes them (reasoningTokens is the breakdown). Rendering for a client
 * (`renderUsageMetadata`) undoes the same conventions; per-modality prompt
 * counts of a translated answer are an estimate: each media part at the
 * gateway's fixed media figure, the rest text.
 */
import { emptyUsage, type Usage } from '../../core/chat.js';
import type { GeminiModalityTokenCount, GeminiUsageMetadata } from './wire.js';
import { MEDIA_PART_TOKENS } from '../../core/tokens.js';

export function usageFromGemini(usage: GeminiUsageMetadata | null | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cached = usage.cachedContentTokenCount ?? 0;
  result.inputTokens = Math.max(0, (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0) - cached);
  result.cacheReadTokens = cached;
  const thoughts = usage.thoughtsTokenCount;
  result.outputTokens = (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  if (typeof thoughts === 'number') result.reasoningTokens = thoughts;
  return result;
}

/** Whether a chunk's usage carries the prompt count (early chunks of some streams carry only metadata). */
export function hasCounts(usage: GeminiUsageMetadata | null | undefined): usage is GeminiUsageMetadata {
  return !!usage && (typeof usage.promptTokenCount === 'number' || typeof usage.candidatesTokenCount === 'number');
}

export type Modality = GeminiModalityTokenCount['modality'];

/** How many media parts of each modality the prompt holds. */
export type PromptMedia = Partial<Record<Exclude<Modality, 'TEXT' | 'MODALITY_UNSPECIFIED'>, number>>;

export function renderUsageMetadata(usage: Partial<Usage> | undefined, media: PromptMedia = {}): GeminiUsageMetadata {
  const cached = usage?.cacheReadTokens ?? 0;
  const prompt = (usage?.inputTokens ?? 0) + cached + (usage?.cacheWriteTokens ?? 0);
  const output = usage?.outputTokens ?? 0;
  const thoughts = Math.min(usage?.reasoningTokens ?? 0, output);
  const candidates = output - thoughts;
  const out: GeminiUsageMetadata = { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + output };
  if (cached > 0) out.cachedContentTokenCount = cached;
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  if (prompt > 0) out.promptTokensDetails = modalitySplit(prompt, media);
  if (cached > 0) out.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: cached }];
  if (candidates > 0) out.candidatesTokensDetails = [{ modality: 'TEXT', tokenCount: candidates }];
  return out;
}

function modalitySplit(prompt: number, media: PromptMedia): GeminiModalityTokenCount[] {
  const details: GeminiModalityTokenCount[] = [];
  let remaining = prompt;
  for (const modality of ['IMAGE', 'AUDIO', 'VIDEO', 'DOCUMENT'] as const) {
    const tokens = Math.min(remaining, (media[modality] ?? 0) * MEDIA_PART_TOKENS);
    if (tokens > 0) details.push({ modality, tokenCount: tokens });
    remaining -= tokens;
  }
  if (remaining > 0 || details.length === 0) details.unshift({ modality: 'TEXT', tokenCount: remaining });
  return details;
}
