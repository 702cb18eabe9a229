/**
 * The built-in catalogue: real models mapped from @pydantic/genai-prices
 * (tiers, one-hour cache writes, dated ids), the package's own answers as the
 * reference for names and costs, time-dependent prices, and the price
 * table's order (the operator's prices first).
 */
import { createRequire } from 'node:module';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GenaiPricesCatalogue } from '../../src/billing/catalogue.js';
import { costOf } from '../../src/billing/cost.js';
import { PriceTable, type PriceCatalogue } from '../../src/billing/prices.js';
import type { Usage } from '../../src/core/chat.js';

const genai = createRequire(import.meta.url)('@pydantic/genai-prices') as typeof import('@pydantic/genai-prices');
const catalogue = new GenaiPricesCatalogue();
beforeAll(() => catalogue.load());
afterEach(() => vi.useRealTimers());

describe('catalogue prices', () => {
  it('maps claude-sonnet-4-5 with its 200k tier and one-hour cache writes, and finds it by its dated id', () => {
    const expected = {
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      cacheWrite1h: 6,
      tiers: [{ above: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5, cacheWrite1h: 12 }],
    };
    expect(catalogue.priceOf('claude-sonnet-4-5')).toEqual(expected);
    expect(catalogue.priceOf('claude-sonnet-4-5-20250929')).toEqual(expected);
    expect(catalogue.find('claude-sonnet-4-5-20250929')?.model.id).toBe('claude-sonnet-4-5');
  });

  it('maps gpt-4o and gemini-2.5-pro from their vendors', () => {
    expect(catalogue.priceOf('gpt-4o')).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
    expect(catalogue.find('gpt-4o')?.provider.id).toBe('openai');
    expect(catalogue.priceOf('gemini-2.5-pro')).toEqual({ input: 1.25, output: 10, cacheRead: 0.125, tiers: [{ above: 200_000, input: 2.5, output: 15, cacheRead: 0.25 }] });
    expect(catalogue.find('GEMINI-2.5-PRO')?.provider.id).toBe('google');
  });

  it('finds a model only resellers list, and prices nothing it cannot meter or does not know', () => {
    expect(catalogue.find('llama-3.3-70b-versatile')?.provider.id).toBe('groq');
    expect(catalogue.priceOf('llama-3.3-70b-versatile')?.input).toBeGreaterThan(0);
    // Audio, priced per minute by the package: no token price to charge.
    expect(catalogue.find('whisper-1')).toBeDefined();
    expect(catalogue.priceOf('whisper-1')).toBeUndefined();
    expect(catalogue.priceOf('no-such-model-anywhere')).toBeUndefined();
  });

  it('chooses the model the package chooses, for every name the package knows', () => {
    const names = [
      'claude-opus-4-1',
      'claude-3-5-haiku-20241022',
      'gpt-4o-mini-2024-07-18',
      'o3',
      'o4-mini',
      'gpt-5',
      'gemini-2.0-flash',
      'deepseek-chat',
      'mistral-large-latest',
      'grok-4',
      'command-r-plus',
      'kimi-k2',
    ];
    let compared = 0;
    for (const name of names) {
      const theirs = genai.calcPrice({ input_tokens: 1, output_tokens: 1 }, name);
      if (!theirs) continue;
      compared++;
      expect(catalogue.find(name)?.model.id, name).toBe(theirs.model.id);
    }
    expect(compared).toBeGreaterThan(8);
  });

  it('prices a long-context request at the tier prices, as the package does', () => {
    // The package counts cache reads and writes inside input_tokens; the gateway keeps them apart.
    const cases: Array<[string, Usage]> = [
      ['gemini-2.5-pro', { inputTokens: 250_000, outputTokens: 2_000, cacheReadTokens: 0, cacheWriteTokens: 0 }],
      ['gemini-2.5-pro', { inputTokens: 150_000, outputTokens: 2_000, cacheReadTokens: 40_000, cacheWriteTokens: 0 }],
      ['claude-sonnet-4-5', { inputTokens: 150_000, outputTokens: 3_000, cacheReadTokens: 60_000, cacheWriteTokens: 10_000, cacheWrite1hTokens: 4_000 }],
      ['claude-sonnet-4-5', { inputTokens: 20_000, outputTokens: 3_000, cacheReadTokens: 60_000, cacheWriteTokens: 10_000, cacheWrite1hTokens: 4_000 }],
      // Exactly at the tier's start: still the base price (the tier is for prompts over it).
      ['claude-sonnet-4-5', { inputTokens: 200_000, outputTokens: 1_000, cacheReadTokens: 0, cacheWriteTokens: 0 }],
    ];
    for (const [model, usage] of cases) {
      const theirs = genai.calcPrice(
        {
          input_tokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
          cache_read_tokens: usage.cacheReadTokens,
          cache_write_tokens: usage.cacheWriteTokens,
          cache_write_1h_tokens: usage.cacheWrite1hTokens ?? 0,
          output_tokens: usage.outputTokens,
        },
        model,
      );
      expect(costOf(catalogue.priceOf(model)!, usage), `${model} ${JSON.stringify(usage)}`).toBeCloseTo(theirs!.total_price, 12);
    }
    const long = costOf(catalogue.priceOf('gemini-2.5-pro')!, cases[0]![1]);
    expect(long).toBeCloseTo((250_000 * 2.5 + 2_000 * 15) / 1e6, 12);
  });

  it('takes the dated or time-of-day price in effect, and says when it changes', () => {
    for (const hour of [0, 2, 12, 20]) {
      const at = new Date(Date.UTC(2026, 10, 20, hour, 15));
      const theirs = genai.calcPrice({ input_tokens: 1_000_000, output_tokens: 0 }, 'deepseek-chat', { timestamp: at });
      expect(catalogue.priceOf('deepseek-chat', at)?.input, `${hour}:15`).toBe(theirs!.model_price.input_mtok);
    }
    const noon = Date.UTC(2026, 10, 20, 12, 0);
    expect(catalogue.priceChangesAt('deepseek-chat', noon)).toBe(Date.UTC(2026, 10, 20, 16, 30));
    expect(catalogue.priceChangesAt('gpt-4o', noon)).toBeUndefined();
  });

  it('lists every model it can price, with its provider', () => {
    const entries = catalogue.list();
    expect(entries.length).toBeGreaterThan(500);
    expect(entries).toContainEqual(expect.objectContaining({ model: 'claude-sonnet-4-5', provider: 'anthropic', price: catalogue.priceOf('claude-sonnet-4-5') }));
    expect(entries.every((entry) => entry.price.input !== undefined || entry.price.output !== undefined)).toBe(true);
  });

  it('prices vendor models before its provider list is read, and every model once it is', async () => {
    const fresh = new GenaiPricesCatalogue();
    expect(fresh.loaded).toBe(false);
    expect(fresh.priceOf('gpt-4o')?.input).toBe(2.5);
    expect(fresh.priceOf('llama-3.3-70b-versatile')).toBeUndefined();
    expect(() => fresh.list()).toThrow(/still loading/);
    await fresh.load();
    expect(fresh.priceOf('llama-3.3-70b-versatile')).toBeDefined();
  });
});

describe('the price table with the catalogue', () => {
  it('prefers the operator, then the client name, then the upstream name', () => {
    const table = new PriceTable([{ model: 'gpt-4o', price: { input: 1, output: 1 }, source: 'admin' }], catalogue);
    expect(table.quote('gpt-4o')).toMatchObject({ source: 'admin', price: { input: 1 } });
    expect(table.quote('claude-sonnet-4-5-20250929')).toMatchObject({ source: 'catalogue', matched: 'claude-sonnet-4-5', price: { input: 3 } });
    expect(table.quote('my-alias', 'gemini-2.5-pro')).toMatchObject({ source: 'catalogue', matched: 'gemini-2.5-pro', price: { input: 1.25 } });
    expect(table.quote('my-alias')).toBeUndefined();
    table.useCatalogue(undefined);
    expect(table.quote('claude-sonnet-4-5')).toBeUndefined();
  });

  it('asks again once a time-of-day price has changed', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 20, 16, 0));
    const table = new PriceTable([], catalogue);
    const before = table.quote('deepseek-chat')!.price.input;
    vi.setSystemTime(Date.UTC(2026, 10, 20, 17, 0));
    const after = table.quote('deepseek-chat')!.price.input;
    expect(after).toBe(catalogue.priceOf('deepseek-chat', new Date(Date.UTC(2026, 10, 20, 17, 0)))?.input);
    expect(after).not.toBe(before);
  });
});

describe('a catalogue that fails', () => {
  it('prices nothing instead of failing the settlement that asked', () => {
    const broken: PriceCatalogue = {
      about: { package: 'broken', version: '0', date: '2026-01-01' },
      priceOf: () => {
        throw new Error('unreadable data');
      },
      list: () => [],
    };
    const table = new PriceTable([{ model: 'mine', price: { input: 1 }, source: 'admin' }], broken);
    expect(table.quote('claude-sonnet-4-5')).toBeUndefined();
    expect(table.cost('claude-sonnet-4-5', { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(0);
    expect(table.quote('mine')).toMatchObject({ source: 'admin' });
  });
});
