/** Fixed filler sentences that pad every text reply to a useful length. */
import { countTokens } from '../../core/tokens.js';
import { hashNumber } from './hash.js';

/** The shortest text reply, in tokens, so that max-token cuts have something to cut. */
export const MIN_REPLY_TOKENS = 24;

/**
 * Every sentence contains the word "the" and ends with a period: tests can
 * rely on either as a stop sequence that always occurs in the filler.
 */
export const FILLER_SENTENCES: readonly string[] = [
  'This answer comes from the built-in simulator.',
  'The simulator repeats your words and adds a few plain sentences.',
  'No real model was called to write the reply.',
  'Every reply is the same for the same request.',
  'Configure a channel to reach the real provider.',
  'The token counts in the usage block are exact.',
  'Streaming sends the reply in small pieces.',
  'Ask again and the answer will not change.',
];

/** `prefix` followed by at least one filler sentence, until the whole is MIN_REPLY_TOKENS long. */
export function withFiller(prefix: string, seed: string): string {
  let index = hashNumber(seed) % FILLER_SENTENCES.length;
  let text = prefix;
  // Counts add up across a space before a word; the full text is recounted only to confirm.
  let estimate = countTokens(prefix);
  for (let added = 0; added < FILLER_SENTENCES.length; added++) {
    const piece = (text === '' ? '' : ' ') + FILLER_SENTENCES[index];
    text += piece;
    estimate += countTokens(piece);
    if (estimate >= MIN_REPLY_TOKENS && countTokens(text) >= MIN_REPLY_TOKENS) break;
    index = (index + 1) % FILLER_SENTENCES.length;
  }
  return text;
}
