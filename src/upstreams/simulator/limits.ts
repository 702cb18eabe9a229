/**
 * Where the simulated generation ends: the output token budget (thinking
 * first, then text, then the tool call) and the stop sequences (text only).
 */
import type { ChatRequest, FinishReason } from '../../core/chat.js';
import { countTokens, truncateToTokens } from '../../core/tokens.js';
import type { Draft } from './compose.js';

export interface LimitedDraft extends Draft {
  finishReason: FinishReason;
  stopSequence: string | null;
  outputTokens: number;
  reasoningTokens: number;
}

interface Cut {
  text: string;
  tokens: number;
  cut: boolean;
}

function cutToBudget(text: string, budget: number): Cut {
  const tokens = countTokens(text);
  if (tokens <= budget) return { text, tokens, cut: false };
  const kept = truncateToTokens(text, budget);
  return { text: kept, tokens: countTokens(kept), cut: true };
}

/** The earliest stop sequence in the text (the longest one when several start at the same place). */
function findStop(text: string, stopSequences: string[] | undefined): { index: number; sequence: string } | undefined {
  let found: { index: number; sequence: string } | undefined;
  for (const sequence of stopSequences ?? []) {
    if (sequence === '') continue;
    const index = text.indexOf(sequence);
    if (index < 0) continue;
    if (!found || index < found.index || (index === found.index && sequence.length > found.sequence.length)) found = { index, sequence };
  }
  return found;
}

export function applyLimits(draft: Draft, request: ChatRequest): LimitedDraft {
  let budget = request.maxTokens ?? Infinity;
  const result: LimitedDraft = { text: '', finishReason: 'stop', stopSequence: null, outputTokens: 0, reasoningTokens: 0 };
  const spend = (tokens: number) => {
    budget -= tokens;
    result.outputTokens += tokens;
  };

  if (draft.thinking !== undefined) {
    const thinkingBudget = request.thinking?.budgetTokens;
    const allowed = thinkingBudget !== undefined && thinkingBudget > 0 ? Math.min(budget, thinkingBudget) : budget;
    // A thought cut by its own budget just ends early; one cut by max tokens ends the answer.
    const cutEndsAnswer = allowed === budget;
    const thinking = cutToBudget(draft.thinking, allowed);
    result.thinking = thinking.text;
    result.reasoningTokens = thinking.tokens;
    spend(thinking.tokens);
    if (thinking.cut && cutEndsAnswer) return { ...result, finishReason: 'length' };
  }

  const stop = findStop(draft.text, request.stopSequences);
  const wanted = stop ? draft.text.slice(0, stop.index) : draft.text;
  const text = cutToBudget(wanted, budget);
  result.text = text.text;
  spend(text.tokens);
  if (text.cut) return { ...result, finishReason: 'length' };
  if (stop) return { ...result, finishReason: 'stop_sequence', stopSequence: stop.sequence };

  if (draft.toolCall) {
    const toolTokens = countTokens(draft.toolCall.name) + countTokens(JSON.stringify(draft.toolCall.input));
    if (toolTokens > budget) return { ...result, finishReason: 'length' };
    spend(toolTokens);
    return { ...result, toolCall: draft.toolCall, finishReason: 'tool_use' };
  }
  return result;
}
