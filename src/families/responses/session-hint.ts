/**
 * A Responses conversation's session, when no header names it: the client's
 * `prompt_cache_key`; else, for a turn continuing a stored response, the
 * first response of that chain; else the stable prefix (instructions, tools,
 * the input through the first user message). A stored first turn is also
 * known by its own id (the alias), which its follow-ups reach through their
 * `previous_response_id`.
 */
import { sessionIdHint, sessionPrefixHint, throughFirstUserMessage } from '../../pipeline/session-key.js';
import type { ResponsesExchange } from './exchange.js';

const chainHint = (firstResponseId: string) => sessionIdHint(`response:${firstResponseId}`);

export function responsesSessionHint(body: Record<string, unknown>, exchange: ResponsesExchange): string {
  const cacheKey = body.prompt_cache_key;
  if (typeof cacheKey === 'string' && cacheKey !== '') return sessionIdHint(cacheKey);
  const previous = exchange.options.history.previous;
  if (previous) return chainHint(previous.chain[0] ?? previous.id);
  // A first turn's text input is the user message the later turns send back as an item.
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  return sessionPrefixHint(body.instructions, body.tools, throughFirstUserMessage(input));
}

export function responsesSessionAlias(exchange: ResponsesExchange): string | undefined {
  return exchange.stores && exchange.options.history.previous === undefined ? chainHint(exchange.id) : undefined;
}
