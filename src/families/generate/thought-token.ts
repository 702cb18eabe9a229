/**
 * A thought the client did not ask to see (no `includeThoughts`), or one with
 * no text form (redacted), still has to go back to the upstream that made it:
 * some upstreams refuse a tool-use turn without its signed thought. Such a
 * thought travels to the client inside the part's opaque `thoughtSignature`,
 * as base64 of a fixed marker and the thought, and comes back from it.
 * Signatures of the native service never start with the marker.
 */
import type { ThinkingPart } from '../../core/chat.js';

/** Twelve bytes, so its base64 form is a fixed prefix of every token. */
const MARKER = 'sy-thought:1';
const PREFIX = Buffer.from(MARKER).toString('base64');

interface Carried {
  t?: string;
  s?: string;
  r?: string;
}

export function wrapThought(part: ThinkingPart): string {
  const carried: Carried = {};
  if (part.text) carried.t = part.text;
  if (part.signature) carried.s = part.signature;
  if (part.redactedData !== undefined) carried.r = part.redactedData;
  return Buffer.from(MARKER + JSON.stringify(carried)).toString('base64');
}

/** The thought a token carries, or undefined for any other signature. */
export function unwrapThought(signature: string): ThinkingPart | undefined {
  if (!signature.startsWith(PREFIX)) return undefined;
  let carried: Carried;
  try {
    carried = JSON.parse(Buffer.from(signature, 'base64').toString('utf8').slice(MARKER.length)) as Carried;
  } catch {
    return undefined;
  }
  const part: ThinkingPart = { type: 'thinking', text: typeof carried.t === 'string' ? carried.t : '' };
  if (typeof carried.s === 'string') part.signature = carried.s;
  if (typeof carried.r === 'string') part.redactedData = carried.r;
  return part;
}
