/**
 * A Messages `cache_control` object (`{type: "ephemeral", ttl?: "5m" | "1h"}`)
 * read as a cache mark. Chat Completions clients send the same object as an
 * extension (opencode for Claude models), so both families read it here.
 */
import type { CacheMark } from '../../core/cache-intent.js';

export function cacheMarkOf(value: unknown): CacheMark | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const control = (value as { cache_control?: unknown }).cache_control;
  if (typeof control !== 'object' || control === null) return undefined;
  return { ttl: (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m' };
}

/** The Messages wire form of a mark. */
export function cacheControlOf(mark: CacheMark): { type: 'ephemeral'; ttl?: '1h' } {
  return mark.ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}
