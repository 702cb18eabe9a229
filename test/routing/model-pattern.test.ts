import { describe, expect, it } from 'vitest';
import { matchesAnyModelPattern, matchesModelPattern, ModelPatternTable } from '../../src/core/model-pattern.js';
import { KeyAuthenticator } from '../../src/http/auth.js';
import type { KeyRecord, Store } from '../../src/storage/types.js';

describe('model patterns', () => {
  it('matches exact names, `*` and `prefix*`', () => {
    expect(matchesModelPattern('gpt-4o', 'gpt-4o')).toBe(true);
    expect(matchesModelPattern('gpt-4o', 'gpt-4o-mini')).toBe(false);
    expect(matchesModelPattern('*', 'anything')).toBe(true);
    expect(matchesModelPattern('claude-*', 'claude-sonnet-4-5')).toBe(true);
    expect(matchesModelPattern('claude-*', 'gpt-4o')).toBe(false);
    expect(matchesModelPattern('ig_*', 'ig_imagine')).toBe(true);
    // Only a trailing star is a pattern.
    expect(matchesModelPattern('*-mini', 'gpt-4o-mini')).toBe(false);
    expect(matchesAnyModelPattern(['a', 'b*'], 'bee')).toBe(true);
    expect(matchesAnyModelPattern([], 'a')).toBe(false);
  });

  it('restricts a key the same way', () => {
    const auth = new KeyAuthenticator({} as Store, 1000);
    const record = { models: ['claude-*', 'ig_upscale'], quota: null } as unknown as KeyRecord;
    expect(() => auth.authorize({ record }, 'claude-sonnet-4-5')).not.toThrow();
    expect(() => auth.authorize({ record }, 'ig_upscale')).not.toThrow();
    expect(() => auth.authorize({ record }, 'ig_imagine')).toThrow('may not use model "ig_imagine"');
    expect(() => auth.authorize({ record: { ...record, models: null } }, 'anything')).not.toThrow();
  });
});

describe('ModelPatternTable', () => {
  it('takes the exact name, else the longest matching prefix, with * last', () => {
    const table = new ModelPatternTable({ '*': 'any', 'claude-*': 'claude', 'claude-opus-*': 'opus', 'claude-opus-4': 'exact' });
    expect(table.get('claude-opus-4')).toBe('exact');
    expect(table.get('claude-opus-4-1')).toBe('opus');
    expect(table.get('claude-haiku')).toBe('claude');
    expect(table.get('gpt-4o')).toBe('any');
    expect(new ModelPatternTable({ 'a*': 1 }).get('b')).toBeUndefined();
  });
});
