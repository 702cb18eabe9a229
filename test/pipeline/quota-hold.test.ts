/**
 * What a request holds against its key's quota and budgets before routing:
 * the output limit the client declared, else the one its dialect implies
 * (legacy Completions: 16 tokens), else the gateway's default.
 */
import { describe, expect, it } from 'vitest';
import { holdQuota } from '../../src/pipeline/quota-hold.js';
import type { AppContext } from '../../src/http/context.js';
import type { ClientKey } from '../../src/http/auth.js';

function held(request: Parameters<typeof holdQuota>[3]): number {
  let estimate = Number.NaN;
  const ctx = {
    budgets: { applicable: () => undefined },
    // One dollar per output token: the estimate is the output held.
    prices: { cost: (_model: string, usage: { outputTokens: number }) => usage.outputTokens },
    quota: {
      hold: async (_key: unknown, value: number) => {
        estimate = value;
        return {};
      },
    },
    auth: { spent: () => 0 },
  } as unknown as AppContext;
  const key = { record: { id: 'key_1', quota: 10 } } as unknown as ClientKey;
  void holdQuota(ctx, key, 'm-1', request);
  return estimate;
}

describe('the output a request holds', () => {
  it('is the declared limit, else the one the dialect implies, else 4096 tokens', () => {
    expect(held({ inputBytes: 0, body: { max_tokens: 100 }, impliedOutputTokens: 16 })).toBe(100);
    expect(held({ inputBytes: 0, body: {}, impliedOutputTokens: 16 })).toBe(16);
    expect(held({ inputBytes: 0, body: {} })).toBe(4096);
    expect(held({ inputBytes: 0, outputTokens: 0, impliedOutputTokens: 16 })).toBe(0);
  });
});
