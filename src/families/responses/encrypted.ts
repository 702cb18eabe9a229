/**
 * `encrypted_content` of reasoning items the gateway writes itself (answers
 * translated from another upstream). It wraps the upstream's own proof of the
 * thought (a signature, or redacted thinking data) under a recognisable prefix,
 * so a later turn can give it back to a translating upstream, and never sends
 * it to a native upstream that could not read it.
 */
import type { ThinkingPart } from '../../core/chat.js';

const prefix = 'swy1.';

interface Wrapped {
  /** signature */
  s?: string;
  /** the signed thought, which a signature proves (the summary may be left out of the item) */
  t?: string;
  /** redacted thinking data */
  r?: string;
}

export function wrapThinkingProof(part: Pick<ThinkingPart, 'text' | 'signature' | 'redactedData'>): string | undefined {
  if (part.signature === undefined && part.redactedData === undefined) return undefined;
  const wrapped: Wrapped = part.redactedData !== undefined ? { r: part.redactedData } : { s: part.signature, t: part.text };
  return prefix + Buffer.from(JSON.stringify(wrapped), 'utf8').toString('base64url');
}

export function isGatewayProof(encrypted: unknown): encrypted is string {
  return typeof encrypted === 'string' && encrypted.startsWith(prefix);
}

export interface ThinkingProof {
  signature?: string;
  redactedData?: string;
  /** The thought the signature proves. */
  text?: string;
}

/** The proof inside a gateway-written `encrypted_content`; undefined for any other value. */
export function unwrapThinkingProof(encrypted: unknown): ThinkingProof | undefined {
  if (!isGatewayProof(encrypted)) return undefined;
  try {
    const wrapped = JSON.parse(Buffer.from(encrypted.slice(prefix.length), 'base64url').toString('utf8')) as Wrapped;
    if (typeof wrapped.r === 'string') return { redactedData: wrapped.r };
    if (typeof wrapped.s === 'string') return typeof wrapped.t === 'string' ? { signature: wrapped.s, text: wrapped.t } : { signature: wrapped.s };
  } catch {
    // A damaged value carries no proof.
  }
  return undefined;
}
