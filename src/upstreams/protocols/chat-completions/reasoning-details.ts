/**
 * `reasoning_details` from an OpenRouter-style upstream: the entries (thought
 * text with its signature, encrypted state such as a Gemini call's signature
 * with the call's id) that it wants back verbatim on later turns. The gateway
 * keeps a turn's entries together as one opaque state, a thinking part with
 * no text whose signature is the entries' JSON (sealed like any state with
 * the origin of the endpoint that served it: the provider's type, the
 * entries being the service's own), and sends them back on that turn's
 * assistant message to an endpoint of the same origin. The thought text itself still comes from `reasoning`.
 */
import type { ContentPart, ThinkingPart } from '../../../core/chat.js';

/** Streamed entries arrive in pieces sharing an `index`: text is joined, other fields are the last seen. */
export class DetailsCollector {
  private readonly entries: Array<Record<string, unknown>> = [];

  add(details: unknown): void {
    if (!Array.isArray(details)) return;
    for (const entry of details) {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
      const piece = entry as Record<string, unknown>;
      const last = this.entries[this.entries.length - 1];
      if (last && piece.index !== undefined && last.index === piece.index && last.type === piece.type) {
        for (const [field, value] of Object.entries(piece)) {
          if (field === 'text' && typeof value === 'string') last.text = `${typeof last.text === 'string' ? last.text : ''}${value}`;
          else if (value !== undefined && value !== null && value !== '') last[field] = value;
        }
      } else this.entries.push({ ...piece });
    }
  }

  /** The turn's state, or undefined when the upstream sent no entries. */
  state(): ThinkingPart | undefined {
    return this.entries.length > 0 ? { type: 'thinking', text: '', signature: JSON.stringify(this.entries) } : undefined;
  }
}

/** The entries to send back on an assistant turn: those an upstream of this `origin` gave in it. */
export function detailsOfTurn(content: readonly ContentPart[], origin: string): unknown[] {
  const details: unknown[] = [];
  for (const part of content) {
    if (part.type !== 'thinking' || part.origin !== origin || !part.signature?.startsWith('[')) continue;
    try {
      const parsed: unknown = JSON.parse(part.signature);
      if (Array.isArray(parsed)) details.push(...parsed);
    } catch {
      // Not entries: nothing to send back.
    }
  }
  return details;
}
