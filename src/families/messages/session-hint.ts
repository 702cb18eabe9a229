/**
 * A Messages conversation's session, when no header names it: the session id
 * Claude Code also writes into `metadata.user_id` (a JSON text), else the
 * stable prefix (system, tools, the first message), as the prompt cache sees it.
 */
import { sessionIdHint, sessionPrefixHint } from '../../pipeline/session-key.js';

export function messagesSessionHint(body: Record<string, unknown>): string {
  const session = metadataSession(body.metadata);
  if (session !== undefined) return sessionIdHint(session);
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return sessionPrefixHint(body.system, body.tools, messages[0]);
}

/** `{"device_id":…,"session_id":…}` in `metadata.user_id`; a plain user id names a person, not a session. */
function metadataSession(metadata: unknown): string | undefined {
  const userId = (metadata as { user_id?: unknown } | null | undefined)?.user_id;
  if (typeof userId !== 'string' || !userId.includes('"session_id"')) return undefined;
  try {
    const session = (JSON.parse(userId) as { session_id?: unknown }).session_id;
    return typeof session === 'string' && session !== '' ? session : undefined;
  } catch {
    return undefined;
  }
}
