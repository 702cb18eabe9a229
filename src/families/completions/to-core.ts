/**
 * A validated legacy Completions request → the internal ChatRequest, for
 * upstreams that do not serve `/completions` themselves.
 *
 * Choices worth knowing:
 * - The prompt becomes one user turn of text; no system prompt is added.
 * - `max_tokens` defaults to 16, the API's own default, so a translated
 *   answer is as long as the native one would be.
 * - Several prompts, token-id prompts, `echo`, `suffix`, `logprobs`,
 *   `best_of` > 1, `n` > 1, `logit_bias` and `max_tokens: 0` change an answer
 *   a chat upstream cannot give: they are features (dialects/completions/
 *   features.ts), served only where the channel's server offers
 *   `/completions`, and refused by name elsewhere. A single prompt in an
 *   array is the same as the string.
 * - Every other field the gateway does not read is a hint.
 */
import type { ChatRequest } from '../../core/chat.js';
import type { CompletionsFeature } from '../../dialects/completions/features.js';
import type { CompletionsPrompt } from '../../dialects/completions/wire.js';
import type { ValidatedCompletionsRequest } from './validate.js';

/** The legacy API's default answer length. */
export const DEFAULT_MAX_TOKENS = 16;

const handledFields = new Set(['model', 'prompt', 'max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'presence_penalty', 'frequency_penalty', 'stream', 'stream_options', 'user']);

type Features = Partial<Record<CompletionsFeature, unknown>>;

export function completionsToCore(req: ValidatedCompletionsRequest): ChatRequest {
  const features: Features = {};
  const text = promptText(req.prompt, features);
  const out: ChatRequest = { model: req.model, messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: req.stream === true };
  const maxTokens = req.max_tokens ?? DEFAULT_MAX_TOKENS;
  if (maxTokens === 0) features.max_tokens = 0;
  else out.maxTokens = maxTokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.topP = req.top_p;
  if (req.stop != null) out.stopSequences = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (req.seed != null) out.seed = req.seed;
  if (req.presence_penalty != null) out.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty != null) out.frequencyPenalty = req.frequency_penalty;
  if (req.user) out.user = req.user;
  const hints = classifyFields(req, features);
  if (Object.keys(features).length > 0) out.features = { completions: features };
  if (Object.keys(hints).length > 0) out.hints = hints;
  return out;
}

/** The one text prompt; anything else is a feature (its text left empty: the request is refused before it is sent). */
function promptText(prompt: CompletionsPrompt, features: Features): string {
  if (typeof prompt === 'string') return prompt;
  if (prompt.length === 1 && typeof prompt[0] === 'string') return prompt[0];
  features.prompt = prompt.every((item) => typeof item === 'string') ? 'several prompts' : 'token ids';
  return '';
}

/** Answer-changing fields become features; the rest of what the gateway does not read, hints. */
function classifyFields(req: ValidatedCompletionsRequest, features: Features): Record<string, unknown> {
  const hints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req)) {
    if (value === null || value === undefined || value === false || handledFields.has(key)) continue;
    if (key === 'echo' || key === 'logprobs') features[key] = value;
    else if (key === 'suffix') {
      if (value !== '') features.suffix = value;
    } else if (key === 'n' || key === 'best_of') {
      if (typeof value === 'number' && value > 1) features[key] = value;
    } else if (key === 'logit_bias') {
      if (Object.keys(value as object).length > 0) features.logit_bias = value;
    } else hints[key] = value;
  }
  return hints;
}
