/**
 * A Messages conversation's session, when no header names it: its stable
 * prefix (system, tools, the first message), as the prompt cache sees it.
 */
import { sessionPrefixHint } from '../../pipeline/session-key.js';

export function messagesSessionHint(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return sessionPrefixHint(body.system, body.tools, messages[0]);
}
