/**
 * The last resort for a function call's reasoning state (a Gemini 3 call's
 * thought signature, sealed): clients carry it in their dialect's slot
 * (reasoning item, thinking block, `reasoning_details`), but some send back
 * only the call (ai-SDK-style Chat Completions clients, a Messages client that
 * keeps tool_use blocks alone). The gateway remembers, per client key, the
 * sealed state that came with each call id it handed out, and puts it back
 * before that call when a replayed turn arrives without any.
 *
 * A plain answer is read with `rememberAnswer`; a stream, by the seal pass
 * that already reads its events (`SealOptions.onCallState`).
 *
 * Bounded: at most `maxEntries` calls and `maxChars` characters, each call
 * for `ttlMs`, least recently used first out. Held by one instance: a turn served by another instance finds
 * nothing and goes on as before (Gemini 3 then gets the documented sentinel).
 */
import type { ChatMessage, ChatRequest, ChatResponse, ContentPart } from './chat.js';

export interface CallStateMemoOptions {
  maxEntries: number;
  /** The characters of keys and tokens held at most (signatures run to kilobytes). */
  maxChars: number;
  ttlMs: number;
  now?: () => number;
}

export class CallStateMemo {
  private readonly entries = new Map<string, { token: string; expires: number }>();
  private chars = 0;
  private readonly now: () => number;

  constructor(private readonly options: CallStateMemoOptions) {
    this.now = options.now ?? Date.now;
  }

  remember(scope: string, callId: string, token: string): void {
    const key = `${scope}\u0000${callId}`;
    this.forget(key);
    this.entries.set(key, { token, expires: this.now() + this.options.ttlMs });
    this.chars += key.length + token.length;
    while (this.entries.size > this.options.maxEntries || this.chars > this.options.maxChars) this.forget(this.entries.keys().next().value!);
  }

  recall(scope: string, callId: string): string | undefined {
    const key = `${scope}\u0000${callId}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= this.now()) {
      this.chars -= key.length + entry.token.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.token;
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.chars -= key.length + entry.token.length;
  }

  /** Notes the state of each call of a (sealed) answer. */
  rememberAnswer(scope: string, content: ChatResponse['content']): void {
    for (const [callId, token] of callStates(content)) this.remember(scope, callId, token);
  }

  /** A request whose replayed turns lost their calls' state, with the state put back where it was remembered. */
  restore(scope: string, request: ChatRequest): ChatRequest {
    if (this.entries.size === 0 || !request.messages.some(lostCallState)) return request;
    return { ...request, messages: request.messages.map((message) => (lostCallState(message) ? this.restoreTurn(scope, message) : message)) };
  }

  private restoreTurn(scope: string, message: ChatMessage): ChatMessage {
    const content: ContentPart[] = [];
    for (const part of message.content) {
      const token = part.type === 'tool_call' ? this.recall(scope, part.id) : undefined;
      if (token) content.push({ type: 'thinking', text: '', signature: token });
      content.push(part);
    }
    return { ...message, content };
  }
}

/** Call id → the state (a signature with no thought text) that came right before it, or after the last call at the answer's end. */
function callStates(content: readonly ContentPart[]): Map<string, string> {
  const states = new Map<string, string>();
  let lastCall: string | undefined;
  content.forEach((part, i) => {
    if (part.type === 'tool_call') lastCall = part.id;
    if (part.type !== 'thinking' || part.text !== '' || !part.signature) return;
    const next = content[i + 1];
    const callId = next === undefined ? lastCall : next.type === 'tool_call' ? next.id : undefined;
    if (callId) states.set(callId, part.signature);
  });
  return states;
}

/** An assistant turn with calls and no state of any call: nothing signed without text, no call signature. */
function lostCallState(message: ChatMessage): boolean {
  if (message.role !== 'assistant' || !message.content.some((part) => part.type === 'tool_call')) return false;
  return !message.content.some((part) => (part.type === 'thinking' && part.text === '' && (part.signature || part.redactedData)) || (part.type === 'tool_call' && part.signature));
}
