/**
 * The two prompt-cache models of the fake upstreams, per upstream API key:
 *
 * - `BreakpointCache` (Anthropic): only prefixes that end at a `cache_control`
 *   breakpoint are written; a request reads the longest prefix written before
 *   that ends at one of the 20 block boundaries at or before one of its
 *   breakpoints (Anthropic's lookback), and writes from there up to its last
 *   breakpoint, each stretch at the TTL of the breakpoint that closes it.
 * - `PrefixCache` (OpenAI, Gemini implicit): every prompt of at least 1,024
 *   tokens is cached automatically in 128-token steps; a request reads the
 *   longest step written before in its namespace (the key, plus OpenAI's
 *   `prompt_cache_key` when given).
 *
 * Tokens are counted as characters ÷ 4 of a canonical rendering of the prompt
 * (see prompt-blocks.mjs): what matters is the ratio, not the tokenizer.
 * A hit refreshes the entry's TTL, as the real caches do.
 */
import { createHash } from 'node:crypto';

export const CHARS_PER_TOKEN = 4;
export const MIN_CACHEABLE_TOKENS = 1024;
const STEP_TOKENS = 128;
const LOOKBACK_BLOCKS = 20;
export const MAX_BREAKPOINTS = 4;

const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 };
export const tokensOf = (chars) => Math.ceil(chars / CHARS_PER_TOKEN);

/** Hashes of a growing text at given character offsets (one pass, a copy of the state at each). */
function prefixHashes(pieces, offsetsWanted) {
  const hash = createHash('sha1');
  const out = [];
  let at = 0;
  let wanted = 0;
  for (const piece of pieces) {
    let start = 0;
    while (wanted < offsetsWanted.length && offsetsWanted[wanted] <= at + piece.length) {
      const cut = offsetsWanted[wanted] - at;
      hash.update(piece.slice(start, cut));
      start = cut;
      out.push(hash.copy().digest('base64'));
      wanted += 1;
    }
    hash.update(piece.slice(start));
    at += piece.length;
  }
  return out;
}

/** One namespace's entries: prefix hash → expiry (ms since epoch). */
class Entries {
  constructor() {
    this.map = new Map();
  }
  has(hash, now) {
    const expires = this.map.get(hash);
    if (expires === undefined) return false;
    if (expires > now) return true;
    this.map.delete(hash);
    return false;
  }
  put(hash, now, ttlMs) {
    this.map.set(hash, Math.max(this.map.get(hash) ?? 0, now + ttlMs));
  }
}

class Namespaces {
  constructor() {
    this.byName = new Map();
  }
  of(name) {
    let entries = this.byName.get(name);
    if (!entries) this.byName.set(name, (entries = new Entries()));
    return entries;
  }
}

/** Anthropic: `blocks` = [{ text, ttl?: '5m' | '1h' }] in prompt order (tools, system, messages). */
export class BreakpointCache {
  constructor() {
    this.keys = new Namespaces();
  }

  /** Returns { promptTokens, readTokens, write5mTokens, write1hTokens } and updates the key's cache. */
  serve(apiKey, blocks, now = Date.now()) {
    const ends = [];
    let chars = 0;
    for (const block of blocks) ends.push((chars += block.text.length));
    const promptTokens = tokensOf(chars);
    const breakpoints = blocks.flatMap((block, index) => (block.ttl ? [index] : []));
    const empty = { promptTokens, readTokens: 0, write5mTokens: 0, write1hTokens: 0, breakpoints: breakpoints.length };
    if (breakpoints.length === 0) return empty;
    const hashes = prefixHashes(
      blocks.map((block) => block.text),
      ends,
    );
    const entries = this.keys.of(apiKey);
    const cacheable = (index) => tokensOf(ends[index]) >= MIN_CACHEABLE_TOKENS;

    let readIndex = -1;
    for (const bp of breakpoints) {
      for (let index = bp; index >= Math.max(0, bp - LOOKBACK_BLOCKS + 1); index -= 1) {
        if (index <= readIndex) break;
        if (cacheable(index) && entries.has(hashes[index], now)) {
          readIndex = index;
          break;
        }
      }
    }
    const readTokens = readIndex < 0 ? 0 : tokensOf(ends[readIndex]);
    if (readIndex >= 0) entries.put(hashes[readIndex], now, TTL_MS[this.ttlAtOrAfter(blocks, breakpoints, readIndex)]);

    const written = { '5m': 0, '1h': 0 };
    let from = readTokens;
    for (const bp of breakpoints) {
      if (bp <= readIndex || !cacheable(bp)) continue;
      const ttl = blocks[bp].ttl;
      const upTo = tokensOf(ends[bp]);
      written[ttl] += upTo - from;
      from = upTo;
      entries.put(hashes[bp], now, TTL_MS[ttl]);
    }
    return { ...empty, readTokens, write5mTokens: written['5m'], write1hTokens: written['1h'] };
  }

  ttlAtOrAfter(blocks, breakpoints, index) {
    const bp = breakpoints.find((candidate) => candidate >= index);
    return blocks[bp]?.ttl ?? '5m';
  }
}

/** OpenAI and Gemini implicit caching: `text` is the whole canonical prompt. */
export class PrefixCache {
  constructor(ttlMs) {
    this.ttlMs = ttlMs;
    this.keys = new Namespaces();
  }

  /** Returns { promptTokens, readTokens } and writes every 128-token step of the prompt. */
  serve(namespace, text, { ttlMs = this.ttlMs, now = Date.now() } = {}) {
    const promptTokens = tokensOf(text.length);
    const steps = [];
    for (let tokens = MIN_CACHEABLE_TOKENS; tokens <= promptTokens - 1; tokens += STEP_TOKENS) steps.push(tokens);
    if (steps.length === 0) return { promptTokens, readTokens: 0 };
    const hashes = prefixHashes(
      [text],
      steps.map((tokens) => tokens * CHARS_PER_TOKEN),
    );
    const entries = this.keys.of(namespace);
    let readTokens = 0;
    for (let index = 0; index < steps.length && entries.has(hashes[index], now); index += 1) readTokens = steps[index];
    for (const hash of hashes) entries.put(hash, now, ttlMs);
    return { promptTokens, readTokens };
  }
}
