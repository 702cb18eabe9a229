/**
 * Simulated moderation: a text is flagged for a category when it contains
 * one of that category's words below (whole words, case-folded), scored
 * 0.9 and up; every other category gets a small score drawn from a hash of
 * the model and the input, so answers are stable across runs. Images are
 * scored (for the categories OpenAI reads images for) and never flagged.
 * Input tokens are the text's, counted by the gateway's tokenizer.
 */
import { IMAGE_CATEGORIES, MODERATION_CATEGORIES, type ModerationPart, type ModerationRequest, type ModerationResponse, type ModerationResult } from '../../dialects/moderations/wire.js';
import { countTokens } from '../../core/tokens.js';
import type { UpstreamCall } from '../types.js';
import { hashNumber } from './hash.js';
import { simulatedCall } from './plain-call.js';

/** The words that flag a text, by category: few and blunt, for tests and demos. */
export const FLAGGED_WORDS: Readonly<Record<string, readonly string[]>> = {
  violence: ['kill', 'murder', 'stab'],
  harassment: ['idiot', 'loser'],
  hate: ['vermin'],
  'self-harm': ['suicide'],
  'illicit/violent': ['bomb'],
};

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

export async function simulateModeration(request: ModerationRequest, call: UpstreamCall): Promise<ModerationResponse> {
  await simulatedCall(call);
  const results = request.inputs.map((parts) => classify(request.model, parts));
  const inputTokens = request.inputs.reduce((sum, parts) => sum + parts.reduce((n, part) => n + (part.type === 'text' ? countTokens(part.text) : 0), 0), 0);
  return { results, inputTokens };
}

function classify(model: string, parts: ModerationPart[]): ModerationResult {
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  const hasText = parts.some((part) => part.type === 'text');
  const hasImage = parts.some((part) => part.type === 'image_url');
  const present = words(text);
  const seed = `${model}\u0000${JSON.stringify(parts)}`;
  const result: ModerationResult = { flagged: false, categories: {}, category_scores: {}, category_applied_input_types: {} };
  for (const category of MODERATION_CATEGORIES) {
    const hit = (FLAGGED_WORDS[category] ?? []).some((word) => present.has(word));
    const jitter = (hashNumber(`${seed}\u0000${category}`) % 1000) / 1000;
    result.categories[category] = hit;
    result.category_scores[category] = hit ? 0.9 + jitter / 20 : jitter / 1000;
    const applied: Array<'text' | 'image'> = [];
    if (hasText) applied.push('text');
    if (hasImage && IMAGE_CATEGORIES.has(category)) applied.push('image');
    result.category_applied_input_types[category] = applied;
    if (hit) result.flagged = true;
  }
  return result;
}
