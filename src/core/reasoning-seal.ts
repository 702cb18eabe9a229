/**
 * Where reasoning state crosses dialects: a translated answer's state is
 * sealed (tagged with the reasoning origin of the endpoint that served it)
 * before any family renders it, and a translated request's sealed state is
 * opened before any upstream plans or converts it. Families only move the
 * opaque strings between the core parts and their dialect's slots; upstream
 * converters send state back only when its `origin` is their endpoint's.
 */
import type { ChatEvent, ChatMessage, ChatRequest, ChatResponse, ContentPart, ThinkingPart, ToolCallPart } from './chat.js';
import { isSealedReasoning, type ReasoningSealer } from './reasoning-state.js';

export interface SealOptions {
  /** The serving endpoint's reasoning origin (src/upstreams/endpoint.ts `Serving`). */
  origin: string;
  /** The client may not send thought text back verbatim (hidden thoughts, no summaries): the token carries it. */
  carryText: boolean;
  /**
   * Told, as a stream passes, the sealed state that belongs to each call: a
   * signature with no thought text right before the call, or after the last
   * call at the answer's end (see core/call-state-memo.ts). Read in this same
   * pass so that a stream gets no second wrapper.
   */
  onCallState?: (callId: string, token: string) => void;
}

export function sealResponse(response: ChatResponse, sealer: ReasoningSealer, options: SealOptions): ChatResponse {
  return { ...response, content: response.content.map((part) => sealPart(part, sealer, options)) };
}

function sealPart<T extends ContentPart>(part: T, sealer: ReasoningSealer, options: SealOptions): T {
  const { origin } = options;
  if (part.type === 'tool_call' && part.signature) return { ...part, signature: sealer.seal({ origin, kind: 'call', value: part.signature }) };
  if (part.type !== 'thinking') return part;
  if (part.redactedData !== undefined) return { ...part, redactedData: sealer.seal({ origin, kind: 'redacted', value: part.redactedData }) };
  if (!part.signature) return part;
  const text = options.carryText && part.text !== '' ? part.text : undefined;
  return { ...part, signature: sealer.seal({ origin, kind: 'thinking', value: part.signature, text }) };
}

/**
 * The same for a stream: a thinking block's signature deltas are held and
 * sealed as one at the block's end (a token cannot be cut in pieces), with the
 * block's text when the token must carry it.
 */
export async function* sealEvents(events: AsyncIterable<ChatEvent> | Iterable<ChatEvent>, sealer: ReasoningSealer, options: SealOptions): AsyncGenerator<ChatEvent> {
  const thoughts = new Map<number, { text: string; signature: string }>();
  const onCallState = options.onCallState;
  // A signed thought with no text, waiting for the call it belongs to; the last call seen.
  let unclaimed: string | undefined;
  let lastCall: string | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'block_start':
        if (event.block.type === 'thinking') thoughts.set(event.index, { text: '', signature: '' });
        else if (event.block.type === 'tool_call') {
          lastCall = event.block.id;
          if (unclaimed !== undefined) onCallState?.(lastCall, unclaimed);
          unclaimed = undefined;
        } else unclaimed = undefined;
        if (event.block.type === 'redacted_thinking') {
          yield { ...event, block: { ...event.block, data: sealer.seal({ origin: options.origin, kind: 'redacted', value: event.block.data }) } };
          continue;
        }
        break;
      case 'thinking_delta': {
        const thought = thoughts.get(event.index);
        if (thought) thought.text += event.text;
        break;
      }
      case 'signature_delta': {
        const thought = thoughts.get(event.index);
        if (!thought) break;
        thought.signature += event.signature;
        continue;
      }
      case 'block_stop': {
        const thought = thoughts.get(event.index);
        thoughts.delete(event.index);
        if (thought && thought.signature !== '') {
          const text = options.carryText && thought.text !== '' ? thought.text : undefined;
          const token = sealer.seal({ origin: options.origin, kind: 'thinking', value: thought.signature, text });
          if (thought.text === '') unclaimed = token;
          yield { type: 'signature_delta', index: event.index, signature: token };
        }
        break;
      }
      case 'finish':
        if (unclaimed !== undefined && lastCall !== undefined) onCallState?.(lastCall, unclaimed);
        break;
    }
    yield event;
  }
}

/**
 * Opens the sealed state of a translated request. A token this gateway cannot
 * open (another secret key, altered) is dropped, as if the client had sent no
 * state. The vendors' own values are left as they are, with no origin: they
 * only ever go back on the native path, whose bytes are never converted.
 */
export function openRequestState(request: ChatRequest, sealer: ReasoningSealer): ChatRequest {
  if (!request.messages.some(carriesSealedState)) return request;
  return { ...request, messages: request.messages.map((message) => (carriesSealedState(message) ? openMessage(message, sealer) : message)) };
}

function carriesSealedState(message: ChatMessage): boolean {
  return message.content.some(
    (part) => (part.type === 'thinking' && (isSealedReasoning(part.signature) || isSealedReasoning(part.redactedData))) || (part.type === 'tool_call' && isSealedReasoning(part.signature)),
  );
}

function openMessage(message: ChatMessage, sealer: ReasoningSealer): ChatMessage {
  const content: ContentPart[] = [];
  for (const part of message.content) {
    if (part.type === 'thinking') content.push(openThinking(part, sealer));
    else if (part.type === 'tool_call') content.push(openCall(part, sealer));
    else content.push(part);
  }
  return { ...message, content };
}

function openThinking(part: ThinkingPart, sealer: ReasoningSealer): ThinkingPart {
  const token = isSealedReasoning(part.redactedData) ? part.redactedData : isSealedReasoning(part.signature) ? part.signature : undefined;
  if (token === undefined) return part;
  const { signature: _signature, redactedData: _redacted, ...rest } = part;
  const state = sealer.open(token);
  if (!state) return rest;
  // The carried text is the one the signature proves: it wins over what the client sent back.
  const opened: ThinkingPart = { ...rest, text: state.text ?? part.text, origin: state.origin };
  if (state.kind === 'redacted') opened.redactedData = state.value;
  else opened.signature = state.value;
  return opened;
}

function openCall(part: ToolCallPart, sealer: ReasoningSealer): ToolCallPart {
  if (!isSealedReasoning(part.signature)) return part;
  const { signature, ...rest } = part;
  const state = sealer.open(signature);
  return state ? { ...rest, signature: state.value, origin: state.origin } : rest;
}
