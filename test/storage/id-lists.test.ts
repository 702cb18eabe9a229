/** `in (…)` lists padded to a power of two with their last value: few statement shapes, the same matches. */
import { describe, expect, it } from 'vitest';
import { paddedInList } from '../../src/storage/id-lists.js';

describe('paddedInList', () => {
  it('rounds the length up to a power of two with the last value, keeping the values and their order', () => {
    expect(paddedInList([])).toEqual([]);
    expect(paddedInList(['a'])).toEqual(['a']);
    expect(paddedInList(['a', 'b', 'c'])).toEqual(['a', 'b', 'c', 'c']);
    const lengths = new Set<number>();
    for (let n = 1; n <= 128; n++) {
      const values = Array.from({ length: n }, (_, i) => `id${i}`);
      const padded = paddedInList(values);
      expect(padded.slice(0, n)).toEqual(values);
      expect(new Set(padded)).toEqual(new Set(values));
      lengths.add(padded.length);
    }
    expect([...lengths]).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
  });
});
