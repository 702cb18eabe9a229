/** The anthropic channel's `betas` setting: how it is checked, and what it leaves of a client's `anthropic-beta`. */
import { describe, expect, it } from 'vitest';
import type { Channel } from '../../../src/core/channel.js';
import { filteredBetas, readBetaLists } from '../../../src/upstreams/protocols/messages/betas.js';
import { anthropicSettingsOf } from '../../../src/upstreams/anthropic/settings.js';

const channel = (settings: Record<string, unknown>) => anthropicSettingsOf({ name: 'proxy', type: 'anthropic', settings } as Channel);

describe('the betas setting', () => {
  it('reads allow and deny lists, and nothing when the setting is absent or empty', () => {
    expect(readBetaLists(channel({}))).toBeUndefined();
    expect(readBetaLists(channel({ betas: {} }))).toBeUndefined();
    expect(readBetaLists(channel({ betas: { deny: ['context-management-*'] } }))).toEqual({ deny: ['context-management-*'], allow: undefined });
    expect(readBetaLists(channel({ betas: { allow: ['a-1', 'b.2_x'], deny: [] } }))).toEqual({ allow: ['a-1', 'b.2_x'], deny: [] });
  });

  it.each([
    [[], 'must be an object'],
    ['x', 'must be an object'],
    [{ deny: 'context-management' }, 'betas.deny must be a list'],
    [{ allow: ['a b'] }, 'betas.allow.0 must be a list'],
    [{ allow: ['a,b'] }, 'betas.allow.0 must be a list'],
    [{ allow: ['a*b'] }, 'betas.allow.0 must be a list'],
    [{ block: ['x'] }, 'takes only `allow` and `deny`, not `block`'],
  ])('refuses %j, naming the setting', (betas, message) => {
    expect(() => channel({ betas })).toThrow(message);
  });
});

describe('filteredBetas', () => {
  const header = 'claude-code-20250219,interleaved-thinking-2025-05-14, context-management-2025-06-27';

  it('leaves the header untouched without lists', () => {
    expect(filteredBetas(header, undefined)).toBe(header);
    expect(filteredBetas(undefined, { deny: ['x'] })).toBeUndefined();
  });

  it('drops what deny matches (exact or by prefix), keeping the order', () => {
    expect(filteredBetas(header, { deny: ['context-management-*'] })).toBe('claude-code-20250219,interleaved-thinking-2025-05-14');
    expect(filteredBetas(header, { deny: ['claude-code-20250219'] })).toBe('interleaved-thinking-2025-05-14,context-management-2025-06-27');
  });

  it('keeps only what allow matches, deny winning over allow', () => {
    expect(filteredBetas(header, { allow: ['*'], deny: ['interleaved-*'] })).toBe('claude-code-20250219,context-management-2025-06-27');
    expect(filteredBetas(header, { allow: ['context-*', 'claude-code-*'], deny: ['claude-*'] })).toBe('context-management-2025-06-27');
  });

  it('is undefined when nothing is left, and skips empty values', () => {
    expect(filteredBetas(header, { allow: ['files-api-2025-04-14'] })).toBeUndefined();
    expect(filteredBetas(' ,a-1,, b-2 ,', { deny: ['c'] })).toBe('a-1,b-2');
  });
});
