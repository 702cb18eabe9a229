/**
 * The session a chat request belongs to, from what the client already sends:
 * an agent's session header (Claude Code, Codex, opencode), else what its
 * family reads in the body (`ChatCall.sessionHint`: an id the client gave, or
 * the stable prefix of the conversation). The key is a short hash that also
 * covers the client key and the model, so sessions of different keys never
 * share a pin and no client text is kept.
 */
import { createHash } from 'node:crypto';
import type { ChatCall } from './types.js';

/**
 * Session headers, the most specific first: Claude Code's; Codex's (`session_id`
 * in older releases, `thread-id` beside it); opencode's.
 */
const SESSION_HEADERS = ['x-claude-code-session-id', 'session-id', 'session_id', 'thread-id', 'x-session-affinity', 'x-session-id'] as const;

/** The header naming the client's session, if it sent one. */
function headerSession(headers: ChatCall['headers']): string | undefined {
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return `header:${text}`;
  }
  return undefined;
}

export function sessionKeyFor(keyId: string, model: string, source: string): string {
  return createHash('sha256').update(keyId).update('\0').update(model).update('\0').update(source).digest('base64url').slice(0, 22);
}

/** From the headers alone (cheap: no body is read), or undefined. */
export function headerSessionKey(call: ChatCall): string | undefined {
  const source = headerSession(call.headers);
  return source === undefined ? undefined : sessionKeyFor(call.key.record.id, call.model, source);
}

/** From the headers, else the family's reading of the body; undefined when neither names a session. */
export function sessionKeyOf(call: ChatCall): string | undefined {
  const source = headerSession(call.headers) ?? call.sessionHint?.();
  return source === undefined ? undefined : sessionKeyFor(call.key.record.id, call.model, source);
}

/** A family's hint for an id the client gave in the body. */
export function sessionIdHint(id: string): string {
  return `id:${id}`;
}

/**
 * A family's hint for the stable prefix of a conversation (system, tools, the
 * first messages): its JSON without cache marks, which clients move from turn
 * to turn (Claude Code, opencode) while the prefix stays the same.
 */
export function sessionPrefixHint(...parts: unknown[]): string {
  return `prefix:${JSON.stringify(parts, withoutCacheMarks)}`;
}

function withoutCacheMarks(name: string, value: unknown): unknown {
  return name === 'cache_control' ? undefined : value;
}

/** The leading messages of a conversation through its first user message (system and developer messages come before it). */
export function throughFirstUserMessage(messages: readonly unknown[]): readonly unknown[] {
  const end = messages.findIndex((message) => (message as { role?: unknown } | null)?.role === 'user');
  return end < 0 ? messages.slice(0, 1) : messages.slice(0, end + 1);
}
