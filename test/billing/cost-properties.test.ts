/**
 * The pricing rule over random usage and prices: never negative, monotone
 * in every token count, equal to the formula worked by hand; and a channel's
 * cost table read by the upstream model name, then the client's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/core/chat.js';
import { costOf } from '../../src/billing/cost.js';
import { upstreamCostOf } from '../../src/billing/upstream-cost.js';
import { readChannelCosts } from '../../src/config/channel-costs.js';
import type { ModelPrice, PriceTier, TokenPrices } from '../../src/config/price-schema.js';

const SEED = Number(process.env.SWITCHYARD_PROPERTY_SEED ?? 20261128);
const runs = { seed: SEED, numRuns: 300 };

const usd = fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 100, noNaN: true, noDefaultInfinity: true }));
const tokenPrices = fc.record({ input: usd, output: usd, cacheRead: usd, cacheWrite: usd, cacheWrite1h: usd, reasoning: usd });
const tier = fc.tuple(fc.integer({ min: 1, max: 400_000 }), tokenPrices).map(([above, prices]): PriceTier => ({ above, ...prices }));
const price: fc.Arbitrary<ModelPrice> = fc
  .tuple(tokenPrices, fc.array(tier, { maxLength: 3 }))
  .map(([prices, tiers]) => (tiers.length === 0 ? prices : { ...prices, tiers: [...tiers].sort((a, b) => a.above - b.above) }));

const count = fc.integer({ min: 0, max: 500_000 });
const usage: fc.Arbitrary<Usage> = fc
  .record({
    inputTokens: count,
    outputTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
    oneHourShare: fc.double({ min: 0, max: 1, noNaN: true }),
    reasoningShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ oneHourShare, reasoningShare, ...counts }) => ({
    ...counts,
    cacheWrite1hTokens: Math.floor(counts.cacheWriteTokens * oneHourShare),
    reasoningTokens: Math.floor(counts.outputTokens * reasoningShare),
  }));

/** The rule as the docs state it, worked out for one usage: each token priced once, at the tier the prompt reaches. */
function byHand(price: ModelPrice, usage: Usage): number {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const reached = (price.tiers ?? []).filter((tier) => prompt > tier.above).at(-1);
  const pick = (field: keyof TokenPrices) => (reached?.[field] !== undefined ? reached[field] : price[field]);
  const input = pick('input') ?? 0;
  const output = pick('output') ?? 0;
  const cacheWrite = pick('cacheWrite') ?? input;
  const oneHour = usage.cacheWrite1hTokens ?? 0;
  const reasoningPrice = pick('reasoning');
  const reasoning = reasoningPrice === undefined ? 0 : (usage.reasoningTokens ?? 0);
  return (
    (usage.inputTokens * input +
      usage.cacheReadTokens * (pick('cacheRead') ?? input) +
      (usage.cacheWriteTokens - oneHour) * cacheWrite +
      oneHour * (pick('cacheWrite1h') ?? cacheWrite) +
      (usage.outputTokens - reasoning) * output +
      reasoning * (reasoningPrice ?? output)) /
    1_000_000
  );
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe(`the pricing rule (seed ${SEED})`, () => {
  it('is never negative', () => {
    fc.assert(
      fc.property(price, usage, (p, u) => costOf(p, u) >= 0),
      runs,
    );
  });

  it('equals the formula worked by hand', () => {
    fc.assert(
      fc.property(price, usage, (p, u) => close(costOf(p, u), byHand(p, u))),
      runs,
    );
  });

  it('never falls when one token count grows (without tiers, which reprice the whole prompt)', () => {
    const fields = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'cacheWrite1hTokens', 'reasoningTokens'] as const;
    fc.assert(
      fc.property(tokenPrices, usage, fc.constantFrom(...fields), fc.integer({ min: 1, max: 100_000 }), (p, u, field, extra) => {
        const more: Usage = { ...u, [field]: (u[field] ?? 0) + extra };
        // Keep the parts within their wholes: one-hour writes are cache writes, reasoning is output.
        if (field === 'cacheWrite1hTokens') more.cacheWriteTokens += extra;
        if (field === 'reasoningTokens') more.outputTokens += extra;
        return costOf(p, more) >= costOf(p, u) - 1e-12;
      }),
      runs,
    );
  });

  it('never falls when one token count grows, with tiers whose prices rise with the prompt', () => {
    const rising = fc
      .tuple(fc.double({ min: 0, max: 10, noNaN: true }), fc.double({ min: 0, max: 10, noNaN: true }), fc.integer({ min: 1, max: 200_000 }))
      .map(([input, output, above]): ModelPrice => ({ input, output, tiers: [{ above, input: input * 2, output: output * 2 }] }));
    const fields = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
    fc.assert(
      fc.property(rising, usage, fc.constantFrom(...fields), fc.integer({ min: 1, max: 100_000 }), (p, u, field, extra) => {
        const more: Usage = { ...u, [field]: u[field] + extra };
        return costOf(p, more) >= costOf(p, u) - 1e-12;
      }),
      runs,
    );
  });
});

describe('a channel cost table', () => {
  const usageOf = (inputTokens: number, outputTokens: number): Usage => ({ inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 });

  it('prices by the upstream model name first, then the client model name, and knows nothing else', () => {
    const costs = readChannelCosts({ costs: { 'up-model': { input: 1, output: 2 }, 'client-*': { input: 3, output: 4 } } });
    expect(upstreamCostOf(costs, 'client-a', 'up-model', usageOf(1_000_000, 1_000_000))).toBe(3);
    expect(upstreamCostOf(costs, 'client-a', 'other-upstream', usageOf(1_000_000, 1_000_000))).toBe(7);
    expect(upstreamCostOf(costs, 'unknown', 'unknown-up', usageOf(1_000_000, 0))).toBeNull();
    expect(upstreamCostOf(undefined, 'client-a', 'up-model', usageOf(1, 1))).toBeNull();
  });

  it('is absent when the setting is, and a bad one names the entry and field', () => {
    expect(readChannelCosts({})).toBeUndefined();
    expect(() => readChannelCosts({ costs: { 'gpt-4o': { input: -1 } } })).toThrow(/^gpt-4o\.input: /);
    expect(() => readChannelCosts({ costs: { 'gpt-4o': { inptu: 1 } } })).toThrow(/^gpt-4o: .*inptu/);
    expect(() => readChannelCosts({ costs: { 'a*b': { input: 1 } } })).toThrow(/^a\*b: may hold `\*` only at its end/);
    expect(() => readChannelCosts({ costs: ['x'] })).toThrow(/^must be a map of model name or pattern to price/);
  });
});
