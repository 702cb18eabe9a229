/** Gemini usage counters and streamed function-call arguments. */
import { describe, expect, it } from 'vitest';
import { PartialArgs } from '../../../src/upstreams/protocols/generate/partial-args.js';
import { usageFromGemini } from '../../../src/dialects/generate/usage.js';

describe('usageFromGemini', () => {
  it('takes cached tokens out of the prompt, adds the tool-use prompt, and counts thoughts as output', () => {
    expect(
      usageFromGemini({
        promptTokenCount: 1000,
        cachedContentTokenCount: 600,
        toolUsePromptTokenCount: 50,
        candidatesTokenCount: 40,
        thoughtsTokenCount: 60,
        totalTokenCount: 1150,
      }),
    ).toEqual({ inputTokens: 450, outputTokens: 100, cacheReadTokens: 600, cacheWriteTokens: 0, reasoningTokens: 60 });
  });

  it('reads a missing usage as zero, without a reasoning count', () => {
    expect(usageFromGemini(undefined)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(usageFromGemini({ promptTokenCount: 3, candidatesTokenCount: 2 })).toEqual({ inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });
});

describe('PartialArgs', () => {
  it('appends string pieces and sets other values along nested paths', () => {
    const args = new PartialArgs();
    args.apply([{ jsonPath: '$.recipe.name', stringValue: 'Lasa', willContinue: true }]);
    args.apply([{ jsonPath: '$.recipe.name', stringValue: 'gna' }]);
    args.apply([
      { jsonPath: '$.recipe.items[0].qty', numberValue: 2 },
      { jsonPath: '$.recipe.items[1].qty', numberValue: 3 },
      { jsonPath: '$.recipe.vegan', boolValue: false },
      { jsonPath: '$.note', nullValue: null },
    ]);
    expect(args.value).toEqual({ recipe: { name: 'Lasagna', items: [{ qty: 2 }, { qty: 3 }], vegan: false }, note: null });
  });

  it('keeps a __proto__ key as data and refuses a gap in an array', () => {
    const args = new PartialArgs();
    args.apply([{ jsonPath: '$.__proto__.polluted', stringValue: 'x' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(args.value)).toBe('{"__proto__":{"polluted":"x"}}');
    expect(() => new PartialArgs().apply([{ jsonPath: '$.list[5]', numberValue: 1 }])).toThrow(/gap/);
  });
});
