/**
 * OpenAI's prompt-cache fields on a translated request, shared by the
 * `openai-chat` and `openai-responses` upstreams. OpenAI caches prompt
 * prefixes by itself; `prompt_cache_key` keeps one session's requests on the
 * same cache, and `prompt_cache_retention: "24h"` keeps the prefix longer.
 *
 * - The key is the client's own `prompt_cache_key`, else the session the
 *   router keeps together (`UpstreamCall.sessionKey`), made short enough for
 *   OpenAI's limit (a longer one is sent as its SHA-256, base64url). The
 *   session is known only once the candidates are placed (pipeline/
 *   session-placement.ts), after `prepare`: the prepared body keeps the
 *   key's place (an undefined field, which JSON leaves out) and each attempt
 *   fills it (`withSessionCacheKey`), a finishing step that cannot refuse.
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

/**
 * The fields to send, in order. `gatewayFieldsByDefault`: whether the
 * gateway's own values are sent when the channel does not set
 * `promptCacheKey`; where the session's key may go, `prompt_cache_key` is
 * present and undefined until `withSessionCacheKey` fills it.
 */
export function openAiPromptCacheFields(request: ChatRequest, settings: PromptCacheSettings, gatewayFieldsByDefault: boolean): Record<string, string | undefined> {
  if (!promptCacheFieldsOn(settings)) return {};
  const fields: Record<string, string | undefined> = {};
  const ours = settings.promptCacheKey === true || gatewayFieldsByDefault;
  if (request.cache?.key !== undefined || ours) fields.prompt_cache_key = request.cache?.key;
  const retention = request.cache?.retention ?? (ours && asksLongCache(request) ? '24h' : undefined);
  if (retention !== undefined) fields.prompt_cache_retention = retention;
  return fields;
}

/**
 * A prepared body with the session's cache key in the place it kept for it
 * (in place: one request has one session); the body as it is when it has no
 * such place or there is no session.
 */
export function withSessionCacheKey<Body extends Record<string, unknown>>(body: Body, sessionKey: string | undefined): Body {
  if (!sessionKey || body.prompt_cache_key !== undefined || !('prompt_cache_key' in body)) return body;
  // Filled in place: a request has one session, so every attempt on the channel sends the same key (a copy of the body costs microseconds).
  (body as Record<string, unknown>).prompt_cache_key = boundedKey(sessionKey);
  return body;
}

/** The body as it is sent for a session (tests and tools that read it as an object): no empty place left. */
export function sentBody<Body extends Record<string, unknown>>(body: Body, sessionKey: string | undefined): Body {
  const sent = withSessionCacheKey(body, sessionKey);
  if (!('prompt_cache_key' in sent) || sent.prompt_cache_key !== undefined) return sent;
  const { prompt_cache_key: _, ...rest } = sent;
  return rest as Body;
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
