/**
 * The one rule for what a chat request is charged, on every path (pass-through
 * and translated, every family and upstream type):
 *
 * - the upstream's FINAL usage is taken as reported. Final means the answer's
 *   own usage (a plain answer's, Messages' `message_delta`, the Chat
 *   Completions usage chunk, a Responses terminal event, the Gemini chunk
 *   that ends the stream, a translated stream's `finish`). Whoever reads an
 *   upstream hands on output counters only once they are final, so a usage
 *   whose `outputTokens` is set is final;
 * - a stream that ended without it (the upstream cut or reset it, went
 *   silent, the client left, shutdown ended it) is charged for its output by
 *   the tokenizer, from the text, tool-call arguments and reasoning the
 *   client actually received; its prompt comes from what the upstream
 *   reported early (Anthropic's `message_start`, a Gemini chunk's prompt
 *   count), or is estimated from the request;
 * - nothing is charged when nothing was answered.
 *
 * The usage says which numbers the gateway counted (`estimatedParts`).
 */
import type { EstimatedPart, Usage } from '../core/chat.js';
import { countTokens } from '../core/tokens.js';

export interface UsageEvidence {
  /** Whether the upstream produced anything at all. */
  answered: boolean;
  /** What the upstream reported: the final usage, or only the prompt's counters when the final one never came. */
  reported?: Partial<Usage>;
  /** The prompt counted from the request, asked only when the upstream did not report it. */
  estimateInput: () => number;
  /** What the client received, asked only when the final usage never came. */
  deliveredText: () => string;
}

const NONE: readonly EstimatedPart[] = [];
const INPUT: readonly EstimatedPart[] = ['input'];
const OUTPUT: readonly EstimatedPart[] = ['output'];
const BOTH: readonly EstimatedPart[] = ['input', 'output'];

export function chargedUsage(evidence: UsageEvidence): Usage {
  if (!evidence.answered) return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  const reported = evidence.reported ?? {};
  const inputEstimated = reported.inputTokens === undefined;
  const outputEstimated = reported.outputTokens === undefined;
  const usage: Usage = {
    inputTokens: inputEstimated ? evidence.estimateInput() : reported.inputTokens!,
    outputTokens: outputEstimated ? countTokens(evidence.deliveredText()) : reported.outputTokens!,
    cacheReadTokens: reported.cacheReadTokens ?? 0,
    cacheWriteTokens: reported.cacheWriteTokens ?? 0,
    // A counted output has no reasoning breakdown: the reasoning text delivered is in the count.
    reasoningTokens: outputEstimated ? undefined : reported.reasoningTokens,
    estimatedParts: inputEstimated ? (outputEstimated ? BOTH : INPUT) : outputEstimated ? OUTPUT : NONE,
  };
  if (reported.cacheWrite1hTokens !== undefined) usage.cacheWrite1hTokens = reported.cacheWrite1hTokens;
  return usage;
}
