import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../src/core/json-depth.js';

const nested = (levels: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('JSON nesting depth', () => {
  it('counts each object and array as one level', () => {
    expect(exceedsJsonDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(exceedsJsonDepth({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(exceedsJsonDepth('text', 0)).toBe(false);
  });
  it('accepts the limit and refuses one level more', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });
  it('walks 100,000 levels without overflowing the stack', () => {
    expect(exceedsJsonDepth(nested(100_000))).toBe(true);
  });
});
