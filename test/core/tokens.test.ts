import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/core/chat.js';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { countRequestTokens, countTokens, MEDIA_PART_TOKENS, truncateToTokens } from '../../src/core/tokens.js';

describe('countTokens', () => {
  it('counts with o200k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello')).toBe(1);
    expect(countTokens('hello world')).toBe(2);
  });

  it('counts a megabyte-long word in linear time (byte-pair merging is quadratic in one word)', () => {
    const started = Date.now();
    expect(countTokens('x'.repeat(1_000_000))).toBeGreaterThan(100_000);
    expect(countTokens(' '.repeat(1_000_000))).toBeGreaterThan(0);
    expect(countTokens('日本語'.repeat(300_000))).toBeGreaterThan(100_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(truncateToTokens('y'.repeat(500_000), 3).length).toBeGreaterThan(0);
  });

  it('counts text without long runs exactly as the encoding does', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200) + 'a'.repeat(255);
    expect(countTokens(text)).toBe(o200k.countTokens(text));
    // A run at the limit is one piece; one past it is cut, costing at most a token or two.
    expect(countTokens('z'.repeat(255))).toBeLessThanOrEqual(countTokens('z'.repeat(256)));
  });

  it('treats special-token text as plain text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});

describe('truncateToTokens', () => {
  it('keeps the text when it fits and cuts it to a prefix otherwise', () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    expect(truncateToTokens(text, 100)).toBe(text);
    const cut = truncateToTokens(text, 4);
    expect(text.startsWith(cut)).toBe(true);
    expect(countTokens(cut)).toBeLessThanOrEqual(4);
    expect(cut.length).toBeGreaterThan(0);
    expect(truncateToTokens(text, 0)).toBe('');
  });

  it('never ends in half a character', () => {
    const text = '🙂🙂🙂 日本語のテキスト';
    for (let n = 1; n < countTokens(text); n++) {
      const cut = truncateToTokens(text, n);
      expect(text.startsWith(cut)).toBe(true);
      expect(cut).not.toContain('\uFFFD');
      expect(countTokens(cut)).toBeLessThanOrEqual(n);
    }
  });
});

describe('countRequestTokens', () => {
  it('sums system, message parts, media at a fixed cost, and tools', () => {
    const request: ChatRequest = {
      model: 'm',
      stream: false,
      system: 'Be brief.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello world' },
            { type: 'media', mediaType: 'image/png', data: 'AAAA' },
            { type: 'media', mediaType: 'text/plain', text: 'hello' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'f', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: 'done' }] }] },
      ],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
    };
    const expected =
      countTokens('Be brief.') +
      countTokens('hello world') +
      MEDIA_PART_TOKENS +
      countTokens('hello') +
      countTokens('f') +
      countTokens('{"a":1}') +
      countTokens('done') +
      countTokens('f') +
      countTokens('{"type":"object"}');
    expect(countRequestTokens(request)).toBe(expected);
  });
});
