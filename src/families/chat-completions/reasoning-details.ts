/**
 * `reasoning_details`: the array OpenRouter added to Chat Completions messages
 * so that reasoning state survives a client's replay of its history. It is
 * where this family carries reasoning state in both directions:
 *
 * - `reasoning.text` {text, signature?}: a thought, with the (sealed) proof
 *   of it when the upstream signed it (Anthropic thinking, Gemini thoughts,
 *   OpenAI reasoning with a summary).
 * - `reasoning.encrypted` {data, id?}: state with no text: Anthropic redacted
 *   thinking, OpenAI encrypted reasoning without a summary, and a Gemini
 *   function call's thought signature, whose `id` names the tool call it
 *   belongs to (so it goes back right before that call, whatever text came
 *   before it in the message).
 * - `reasoning.summary` {summary}: a summary; read back as unsigned thought.
 *
 * Entries are numbered by `index`; `format` says whose state it is, and is
 * `unknown` because the gateway's sealed tokens are its own, whatever the
 * upstream.
 */
import type { ChatResponse, ThinkingPart } from '../../core/chat.js';
import type { ReasoningDetail as AnyReasoningDetail } from '../../dialects/chat-completions/wire.js';

export const DETAIL_FORMAT = 'unknown';

/** The entries the gateway writes: a thought, or state with no text. */
export type ReasoningDetail = Extract<AnyReasoningDetail, { type: 'reasoning.text' | 'reasoning.encrypted' }>;

/**
 * The details of a whole answer, in the order of its parts. An empty
 * thought's signature names the call after it or, when it ends the answer,
 * the call before it (Gemini may send a call's signature late); it goes back
 * before that call.
 */
export function detailsOfAnswer(content: ChatResponse['content']): ReasoningDetail[] {
  const details: ReasoningDetail[] = [];
  let lastCall: string | undefined;
  content.forEach((part, i) => {
    if (part.type === 'tool_call') lastCall = part.id;
    if (part.type !== 'thinking') return;
    const next = content[i + 1];
    const detail = detailOfThought(part, details.length, next === undefined ? lastCall : next.type === 'tool_call' ? next.id : undefined);
    if (detail) details.push(detail);
  });
  return details;
}

/** One thought as a detail; undefined when it holds nothing. */
export function detailOfThought(part: ThinkingPart, index: number, callId?: string): ReasoningDetail | undefined {
  if (part.redactedData !== undefined) return { type: 'reasoning.encrypted', data: part.redactedData, format: DETAIL_FORMAT, index };
  if (part.text === '') {
    if (!part.signature) return undefined;
    return { type: 'reasoning.encrypted', data: part.signature, ...(callId ? { id: callId } : {}), format: DETAIL_FORMAT, index };
  }
  return { type: 'reasoning.text', text: part.text, ...(part.signature ? { signature: part.signature } : {}), format: DETAIL_FORMAT, index };
}

export interface ThoughtsOfMessage {
  /** Thoughts that go first in the assistant turn. */
  leading: ThinkingPart[];
  /** Thoughts that go right before the tool call with this id (Gemini puts a late one on the turn's first call). */
  beforeCall: Map<string, ThinkingPart[]>;
}

/**
 * The thoughts a client sent back in an assistant message's details. Entries
 * of types this gateway does not know are skipped (another service's state
 * has no meaning here). A sealed token's kind decides, once opened, whether
 * it is a signature or redacted data, so both ride in `signature` here.
 */
export function thoughtsOfDetails(details: readonly unknown[], callIds: ReadonlySet<string>): ThoughtsOfMessage {
  const out: ThoughtsOfMessage = { leading: [], beforeCall: new Map() };
  // Streamed details arrive as pieces sharing an index; a client may send them back unmerged.
  for (const thought of mergeByIndex(details.filter(isObject))) {
    const { part, callId } = thought;
    if (callId !== undefined && callIds.has(callId)) {
      const list = out.beforeCall.get(callId) ?? [];
      list.push(part);
      out.beforeCall.set(callId, list);
    } else out.leading.push(part);
  }
  return out;
}

function mergeByIndex(entries: Array<Record<string, unknown>>): Array<{ part: ThinkingPart; callId?: string }> {
  const thoughts: Array<{ part: ThinkingPart; callId?: string; index?: unknown; type: unknown }> = [];
  for (const entry of entries) {
    const read = readEntry(entry);
    if (!read) continue;
    const last = thoughts[thoughts.length - 1];
    if (last && entry.index !== undefined && last.index === entry.index && last.type === entry.type && entry.type === 'reasoning.text') {
      last.part.text += read.part.text;
      if (read.part.signature) last.part.signature = read.part.signature;
      continue;
    }
    thoughts.push({ ...read, index: entry.index, type: entry.type });
  }
  return thoughts.map(({ part, callId }) => (callId === undefined ? { part } : { part, callId }));
}

function readEntry(entry: Record<string, unknown>): { part: ThinkingPart; callId?: string } | undefined {
  const signature = typeof entry.signature === 'string' && entry.signature !== '' ? entry.signature : undefined;
  switch (entry.type) {
    case 'reasoning.text':
      return { part: { type: 'thinking', text: typeof entry.text === 'string' ? entry.text : '', ...(signature ? { signature } : {}) } };
    case 'reasoning.summary':
      return typeof entry.summary === 'string' && entry.summary !== '' ? { part: { type: 'thinking', text: entry.summary } } : undefined;
    case 'reasoning.encrypted': {
      if (typeof entry.data !== 'string' || entry.data === '') return undefined;
      const part: ThinkingPart = { type: 'thinking', text: '', signature: entry.data };
      return typeof entry.id === 'string' ? { part, callId: entry.id } : { part };
    }
    default:
      return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
