/** The one charging rule (src/billing/delivered-usage.ts): final usage as reported, else what was delivered, and which parts were counted. */
import { describe, expect, it } from 'vitest';
import { chargedUsage } from '../../src/billing/delivered-usage.js';
import { countTokens } from '../../src/core/tokens.js';

const never = () => {
  throw new Error('must not be asked');
};

describe('the charging rule', () => {
  it('charges nothing and estimates nothing when nothing was answered', () => {
    expect(chargedUsage({ answered: false, reported: { inputTokens: 5, outputTokens: 5 }, estimateInput: never, deliveredText: never })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('takes a final usage as reported, a zero output too, without counting anything', () => {
    const usage = chargedUsage({
      answered: true,
      reported: { inputTokens: 10, outputTokens: 0, cacheReadTokens: 2, cacheWriteTokens: 3, cacheWrite1hTokens: 1, reasoningTokens: 0 },
      estimateInput: never,
      deliveredText: never,
    });
    expect(usage).toEqual({ inputTokens: 10, outputTokens: 0, cacheReadTokens: 2, cacheWriteTokens: 3, cacheWrite1hTokens: 1, reasoningTokens: 0, estimatedParts: [] });
  });

  it('counts the delivered text when the final usage never came, keeping the prompt as reported', () => {
    const usage = chargedUsage({ answered: true, reported: { inputTokens: 10, cacheReadTokens: 4 }, estimateInput: never, deliveredText: () => 'what the client read' });
    expect(usage).toMatchObject({ inputTokens: 10, cacheReadTokens: 4, outputTokens: countTokens('what the client read'), estimatedParts: ['output'] });
    expect(usage.reasoningTokens).toBeUndefined();
  });

  it('estimates the prompt too when nothing was reported', () => {
    const usage = chargedUsage({ answered: true, estimateInput: () => 7, deliveredText: () => '' });
    expect(usage).toMatchObject({ inputTokens: 7, outputTokens: 0, estimatedParts: ['input', 'output'] });
  });
});
