/**
 * A content-generation conversation's session, when no header names it: the
 * cached content it builds on, else its stable prefix (system instruction,
 * tools, the first content).
 */
import { sessionIdHint, sessionPrefixHint } from '../../pipeline/session-key.js';

export function generateSessionHint(body: Record<string, unknown>): string {
  const cached = body.cachedContent;
  if (typeof cached === 'string' && cached !== '') return sessionIdHint(cached);
  const contents = Array.isArray(body.contents) ? body.contents : [];
  return sessionPrefixHint(body.systemInstruction ?? body.system_instruction, body.tools, contents[0]);
}
