/**
 * Response parts of the dialect, and where thought signatures go: like the
 * native service, the signature of a thought rides on the next part (a text
 * or a function call), or on an empty text part when nothing follows.
 * State sealed by the gateway (core/reasoning-state.ts) is that signature as
 * it is; otherwise a thought hidden from the client (no `includeThoughts`) or
 * redacted travels whole inside it (thought-token.ts), so the client sends it back.
 */
import type { ThinkingPart } from '../../core/chat.js';
import { isSealedReasoning } from '../../core/reasoning-state.js';
import { wrapThought } from './thought-token.js';
import type { GeminiPart } from '../../dialects/generate/wire.js';

/** The signature to hand the client for a finished thought, if any must come back. */
export function thoughtToken(part: ThinkingPart, includeThoughts: boolean): string | undefined {
  // State the gateway sealed is already base64 and carries its thought: it goes as it is.
  if (isSealedReasoning(part.redactedData)) return part.redactedData;
  if (isSealedReasoning(part.signature)) return part.signature;
  if (part.redactedData !== undefined) return wrapThought(part);
  if (part.text !== '' && !includeThoughts) return part.signature ? wrapThought(part) : undefined;
  return part.signature || undefined;
}

export class SignatureCarrier {
  private pending: string | undefined;

  /** Holds a thought's signature for the next part; a signature already held goes out first on its own. */
  hold(token: string | undefined): GeminiPart | undefined {
    if (token === undefined) return undefined;
    const previous = this.flush();
    this.pending = token;
    return previous;
  }

  attach<T extends GeminiPart>(part: T): T {
    if (this.pending === undefined) return part;
    part.thoughtSignature = this.pending;
    this.pending = undefined;
    return part;
  }

  /** A signature nothing followed, on an empty text part. */
  flush(): GeminiPart | undefined {
    if (this.pending === undefined) return undefined;
    const part = { text: '', thoughtSignature: this.pending };
    this.pending = undefined;
    return part;
  }
}
