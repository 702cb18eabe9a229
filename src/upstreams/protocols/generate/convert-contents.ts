/**
 * Internal messages → Gemini `contents`.
 *
 * - Tool results become `functionResponse` parts named after their call (the
 *   name is looked up by call id when the client's dialect carries none);
 *   media in a result follows as sibling parts, which every model reads.
 * - Thought signatures: a thinking part with a signature and no text is a
 *   Gemini signature that came on the part after it (see convert-response.ts)
 *   and goes back there. Thought text goes back as a `thought: true` part,
 *   with its own signature if it had one. Redacted thinking has no Gemini
 *   form and is left out.
 * - Only signatures whose origin is the endpoint's (`gemini` for every
 *   provider of the protocol, convert-request.ts) go back
 *   (core/reasoning-seal.ts); another provider's state is dropped.
 * - Only the first function call of a turn carries a signature; a signature
 *   that came after an unsigned first call (late, in a stream) goes on it.
 * - Gemini 3 models refuse a replayed function call without its signature;
 *   a call that lost it (e.g. the conversation began on another provider)
 *   gets the documented `skip_thought_signature_validator` sentinel.
 */
import type { ChatMessage, ContentPart, MediaPart, ToolResultPart } from '../../../core/chat.js';

export type GeminiRequestPart = Record<string, unknown>;
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiRequestPart[];
}

const SKIP_SIGNATURE = 'skip_thought_signature_validator';
const signedCallModels = /(^|[/.])gemini-([3-9]|\d{2,})/i;

/** `origin`: the reasoning origin whose signatures go back (see `ownSignature`). */
export function toGeminiContents(messages: ChatMessage[], upstreamModel: string, origin: string): GeminiContent[] {
  const names = callNames(messages);
  const needsCallSignatures = signedCallModels.test(upstreamModel);
  const contents: GeminiContent[] = [];
  for (const message of messages) {
    const parts = message.role === 'assistant' ? modelParts(message.content, needsCallSignatures, origin) : userParts(message.content, names);
    if (parts.length > 0) contents.push({ role: message.role === 'assistant' ? 'model' : 'user', parts });
  }
  return contents;
}

function callNames(messages: ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) for (const part of message.content) if (part.type === 'tool_call') names.set(part.id, part.name);
  return names;
}

function modelParts(content: ContentPart[], needsCallSignatures: boolean, origin: string): GeminiRequestPart[] {
  const parts: GeminiRequestPart[] = [];
  let pending: string | undefined;
  let firstCall: GeminiRequestPart | undefined;
  const sign = (part: GeminiRequestPart): GeminiRequestPart => {
    if (pending !== undefined) part.thoughtSignature = pending;
    pending = undefined;
    return part;
  };
  // Only the first call of a turn carries a signature; one that came after it (late in a stream) is its own.
  const signFirstCall = (): boolean => {
    if (pending === undefined || !firstCall || firstCall.thoughtSignature !== undefined) return false;
    firstCall.thoughtSignature = pending;
    pending = undefined;
    return true;
  };
  for (const part of content) {
    switch (part.type) {
      case 'thinking': {
        if (part.redactedData !== undefined) break;
        const signature = ownSignature(part, origin);
        if (part.text !== '') parts.push(signature ? { text: part.text, thought: true, thoughtSignature: signature } : { text: part.text, thought: true });
        else if (signature) {
          // Two signatures in a row: the first keeps a part of its own rather than being lost.
          if (pending !== undefined && !signFirstCall()) parts.push({ text: '', thoughtSignature: pending });
          pending = signature;
        }
        break;
      }
      case 'text':
        if (part.text !== '' || pending !== undefined) parts.push(sign({ text: part.text }));
        break;
      case 'tool_call': {
        signFirstCall();
        const call = sign({ functionCall: { id: part.id, name: part.name, args: part.input } });
        const callSignature = ownSignature(part, origin);
        if (call.thoughtSignature === undefined && callSignature) call.thoughtSignature = callSignature;
        firstCall ??= call;
        parts.push(call);
        break;
      }
      case 'media':
        parts.push(sign(mediaPart(part)));
        break;
      case 'tool_result':
        break; // never in a model turn
    }
  }
  if (!signFirstCall() && pending !== undefined) parts.push({ text: '', thoughtSignature: pending });
  // A call that lost its signature (the conversation began elsewhere): Gemini 3 takes the documented sentinel.
  if (needsCallSignatures && firstCall && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = SKIP_SIGNATURE;
  return parts;
}

/** A signature Gemini made (the sealed state's origin says so); another provider's state is left out. */
function ownSignature(part: { signature?: string; origin?: string }, origin: string): string | undefined {
  return part.origin === origin && part.signature ? part.signature : undefined;
}

function userParts(content: ContentPart[], names: Map<string, string>): GeminiRequestPart[] {
  const parts: GeminiRequestPart[] = [];
  // Gemini wants a turn's function responses before its other parts.
  const trailing: GeminiRequestPart[] = [];
  for (const part of content) {
    if (part.type === 'tool_result') parts.push(...toolResultParts(part, names));
    else if (part.type === 'text') {
      if (part.text !== '') trailing.push({ text: part.text });
    } else if (part.type === 'media') trailing.push(mediaPart(part));
    // A user turn carries no tool calls or thinking.
  }
  return parts.concat(trailing);
}

function toolResultParts(part: ToolResultPart, names: Map<string, string>): GeminiRequestPart[] {
  const texts: string[] = [];
  const media: GeminiRequestPart[] = [];
  for (const inner of part.content) {
    if (inner.type === 'text') texts.push(inner.text);
    else media.push(mediaPart(inner));
  }
  const text = texts.join('\n');
  const name = part.name ?? names.get(part.callId) ?? 'unknown_function';
  const response = part.isError ? { error: text } : { output: text };
  return [{ functionResponse: { id: part.callId, name, response } }, ...media];
}

function mediaPart(part: MediaPart): GeminiRequestPart {
  if (part.text !== undefined) return { text: part.title ? `${part.title}\n\n${part.text}` : part.text };
  if (part.data !== undefined) return { inlineData: { mimeType: part.mediaType, data: part.data } };
  const file: Record<string, unknown> = { fileUri: part.url };
  // `image/*` (a URL without a known extension) is no MIME type; let the service read it.
  if (!part.mediaType.endsWith('/*')) file.mimeType = part.mediaType;
  return { fileData: file };
}
