/** Types of fake-upstream.mjs, for the tests that check the fake upstreams' answers. */
export declare const SESSION_MARKER: RegExp;

export interface CacheRecord {
  marker: string | undefined;
  upstream: 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';
  apiKey: string;
  turn: number;
  promptTokens: number;
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
  outputTokens: number;
  breakpoints?: number;
  stream: boolean;
  promptCacheKey?: boolean;
  toolCall: boolean;
  /** Gemini: replayed function calls without their thoughtSignature. */
  unsignedCalls?: number;
}

export declare function createCacheUpstream(options?: { toolEvery?: number }): {
  records: CacheRecord[];
  listen(): Promise<string>;
  close(): Promise<void>;
};
