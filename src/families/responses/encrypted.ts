/**
 * `encrypted_content` of reasoning items the gateway writes itself (answers
 * translated from another upstream): the upstream's proof of the thought as
 * the pipeline sealed it (core/reasoning-state.ts: encrypted with the
 * gateway's key, tagged with the upstream type, with the thought when no
 * summary shows it). A later turn gives it back to the upstream type that
 * made it; a native upstream never sees it.
 */
import type { ThinkingPart } from '../../core/chat.js';
import { isSealedReasoning } from '../../core/reasoning-state.js';

/** Written by an earlier version of the gateway (unsealed); recognised only to keep it from a native upstream. */
const legacyPrefix = 'swy1.';

/** The sealed proof of a thought, if the answer carried one. */
export function thinkingProof(part: Pick<ThinkingPart, 'signature' | 'redactedData'>): string | undefined {
  if (isSealedReasoning(part.redactedData)) return part.redactedData;
  if (isSealedReasoning(part.signature)) return part.signature;
  return undefined;
}

/** Whether the gateway wrote the value (a native upstream could not read it). */
export function isGatewayProof(encrypted: unknown): encrypted is string {
  return isSealedReasoning(encrypted) || (typeof encrypted === 'string' && encrypted.startsWith(legacyPrefix));
}
