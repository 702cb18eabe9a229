/**
 * The answer-changing options of the legacy Completions dialect that a chat
 * upstream has no way to honour, put in `ChatRequest.features` by the family:
 * only a channel whose server offers `/completions` itself serves them (by
 * pass-through); a translated channel's plan refuses each by name.
 * - `prompt`: several prompts (one choice each) or token ids (no chat
 *   upstream reads token ids, and the gateway does not know each model's
 *   tokenizer to decode them).
 * - `echo`, `suffix`, `logprobs`, `best_of` > 1, `n` > 1, `logit_bias`.
 * - `max_tokens: 0` (nothing but an echo, or logprobs of the prompt).
 */
export const completionsFeatureKeys = ['prompt', 'echo', 'suffix', 'logprobs', 'best_of', 'n', 'logit_bias', 'max_tokens'] as const;

export type CompletionsFeature = (typeof completionsFeatureKeys)[number];
