/** The benchmark's price table, and what a session's requests cost at it. */

/**
 * One price table for every upstream, so that only caching differs: $3 per M
 * input tokens, $15 per M output tokens; cache reads 0.1× input (Anthropic,
 * OpenAI's GPT-5 family and Gemini 2.5+ implicit caching all bill about that);
 * cache writes 1.25× input for 5 minutes and 2× for 1 hour (Anthropic; the
 * automatic caches of OpenAI and Gemini charge nothing extra to write).
 */
export const PRICES = { inputPerM: 3, outputPerM: 15, readFactor: 0.1, write5mFactor: 1.25, write1hFactor: 2 };

export function costOf(rows) {
  let dollars = 0;
  for (const row of rows) {
    const uncached = row.promptTokens - row.readTokens - row.write5mTokens - row.write1hTokens;
    const input = uncached + row.readTokens * PRICES.readFactor + row.write5mTokens * PRICES.write5mFactor + row.write1hTokens * PRICES.write1hFactor;
    dollars += (input * PRICES.inputPerM + row.outputTokens * PRICES.outputPerM) / 1e6;
  }
  return dollars;
}
