/** Types of prompt-cache.mjs, for the tests that check the fake upstreams' cache rules. */
export declare const CHARS_PER_TOKEN: number;
export declare const MIN_CACHEABLE_TOKENS: number;
export declare const MAX_BREAKPOINTS: number;
export declare function tokensOf(chars: number): number;

export interface BreakpointUsage {
  promptTokens: number;
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
  breakpoints: number;
}

export declare class BreakpointCache {
  serve(apiKey: string, blocks: Array<{ text: string; ttl?: '5m' | '1h' }>, now?: number): BreakpointUsage;
}

export declare class PrefixCache {
  constructor(ttlMs: number);
  serve(namespace: string, text: string, options?: { ttlMs?: number; now?: number }): { promptTokens: number; readTokens: number };
}
