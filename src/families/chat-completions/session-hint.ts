/**
 * A Chat Completions conversation's session, when no header names it: the
 * client's `prompt_cache_key`, else its stable prefix (tools, the messages
 * through the first user message).
 */
import { sessionIdHint, sessionPrefixHint, throughFirstUserMessage } from '../../pipeline/session-key.js';

export function chatCompletionsSessionHint(body: Record<string, unknown>): string {
  const cacheKey = body.prompt_cache_key;
  if (typeof cacheKey === 'string' && cacheKey !== '') return sessionIdHint(cacheKey);
  return sessionPrefixHint(body.tools, throughFirstUserMessage(Array.isArray(body.messages) ? body.messages : []));
}
