/**
 * A prompt-cache breakpoint the client placed (Messages `cache_control`): the
 * prompt up to and including what carries it should be cached, for this long.
 */
export interface CacheMark {
  ttl: '5m' | '1h';
}

/**
 * The client's prompt-caching intent, as far as its dialect words it. Marks on
 * content parts (`ContentPart.cache`) say where the client placed breakpoints
 * inside the conversation; these say the rest. Each upstream uses what its own
 * mechanism has a place for (see each `capabilities.ts`).
 */
export interface PromptCache {
  /** A breakpoint at the end of the tools (the client marked a tool). */
  tools?: CacheMark;
  /** A breakpoint at the end of the system prompt (the client marked a system block). */
  system?: CacheMark;
  /** The client's cache key (Responses and Chat Completions `prompt_cache_key`). */
  key?: string;
  /** The client's cache retention (`prompt_cache_retention`: `in_memory` or `24h`). */
  retention?: string;
}
