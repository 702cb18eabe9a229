/**
 * OpenAI's prompt-cache fields on a translated request, shared by the
 * `openai-chat` and `openai-responses` upstreams. OpenAI caches prompt
 * prefixes by itself; `prompt_cache_key` keeps one session's requests on the
 * same cache, and `prompt_cache_retention: "24h"` keeps the prefix longer.
 *
 * - The key is the client's own `prompt_cache_key`, else the session the
 *   router keeps together (`UpstreamCall.sessionKey`), made short enough for
 *   OpenAI's limit (a longer one is sent as its SHA-256, base64url).
 * - The retention is the client's own, else `24h` when it asked for one-hour
 *   caching (a Messages `ttl: "1h"` mark).
 * - Channel setting `promptCacheKey: false` sends neither, for
 *   OpenAI-compatible servers that refuse fields they do not know.
 * - The session's key and the retention read from marks are the gateway's
 *   own additions, so where many servers that are not OpenAI sit behind the
 *   type (`openai-chat`: DeepSeek, Mistral, vLLM…) they are sent only when
 *   the channel says `promptCacheKey: true`; the client's own fields are
 *   forwarded unless it says `false`.
 */
import { createHash } from 'node:crypto';
import type { ChatRequest } from '../core/chat.js';
import { asksLongCache } from '../core/prompt-cache.js';
import type { PromptCacheSupport } from './plan.js';

/** OpenAI refuses longer keys. */
const MAX_KEY_LENGTH = 64;

/** The one setting both OpenAI types read here (declared in prompt-cache-settings.ts). */
export interface PromptCacheSettings {
  readonly promptCacheKey?: boolean;
}

export function promptCacheFieldsOn(settings: PromptCacheSettings): boolean {
  return settings.promptCacheKey !== false;
}

/** `gatewayFieldsByDefault`: whether the gateway's own values are sent when the channel does not set `promptCacheKey`. */
export function openAiPromptCacheFields(request: ChatRequest, sessionKey: string | undefined, settings: PromptCacheSettings, gatewayFieldsByDefault: boolean): Record<string, string> {
  if (!promptCacheFieldsOn(settings)) return {};
  const fields: Record<string, string> = {};
  const ours = settings.promptCacheKey === true || gatewayFieldsByDefault;
  const key = request.cache?.key ?? (sessionKey && ours ? boundedKey(sessionKey) : undefined);
  if (key !== undefined) fields.prompt_cache_key = key;
  const retention = request.cache?.retention ?? (ours && asksLongCache(request) ? '24h' : undefined);
  if (retention !== undefined) fields.prompt_cache_retention = retention;
  return fields;
}

function boundedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : createHash('sha256').update(key).digest('base64url');
}

const fieldsSent: PromptCacheSupport = { marks: 'automatic prefix caching (a one-hour mark: prompt_cache_retention 24h)', key: 'native', retention: 'native' };
const fieldsOff: PromptCacheSupport = { marks: 'automatic prefix caching' };

/** The plan's words for these fields, by the channel's setting. */
export function openAiPromptCacheSupport(settings: PromptCacheSettings): PromptCacheSupport {
  return promptCacheFieldsOn(settings) ? fieldsSent : fieldsOff;
}
