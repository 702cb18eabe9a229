/**
 * `contents` → internal messages. Turns of the same side merge (`function`
 * and `tool` turns are the user's side). Function calls get an id when the
 * client sent none, and each function response is paired with the call it
 * answers: by id, else by name in the latest model turn. Thought parts become
 * thinking parts; a thought signature on another part signs the thought
 * before it (or, carried by a token, is that thought: see thought-token.ts).
 * Parts recording tools the provider ran itself (code it executed and its
 * result, server-side tool invocations) are dropped and reported as hints:
 * their effect is in the model's text after them, and no other provider can
 * replay them.
 */
import type { ChatMessage, ContentPart, MediaPart, TextPart, ThinkingPart, ToolResultPart } from '../../core/chat.js';
import type { Content, FunctionResponse, Part } from '../../dialects/generate/schema.js';
import { unwrapThought } from './thought-token.js';

interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

class CallLedger {
  private pending: PendingCall[] = [];
  private generated = 0;

  startModelTurn(): void {
    this.pending = [];
  }

  call(id: string | undefined, name: string): string {
    const callId = id || `call_${name.replace(/[^a-zA-Z0-9_-]/g, '_')}_${this.generated++}`;
    this.pending.push({ id: callId, name, answered: false });
    return callId;
  }

  answer(id: string | undefined, name: string): string {
    const match = (id ? this.pending.find((call) => call.id === id) : undefined) ?? this.pending.find((call) => !call.answered && call.name === name);
    if (match) {
      match.answered = true;
      return match.id;
    }
    return id || `call_${name.replace(/[^a-zA-Z0-9_-]/g, '_')}_${this.generated++}`;
  }
}

/** Part fields recording provider-run tool use, dropped from the history. */
export const providerToolParts = ['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'] as const;

/** `dropped` collects the names of the provider-run tool parts left out. */
export function contentsToMessages(contents: Content[], dropped?: Set<string>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const ledger = new CallLedger();
  let current: ChatMessage | undefined;
  for (const content of contents) {
    const role = content.role === 'model' ? 'assistant' : 'user';
    if (!current || current.role !== role) {
      if (role === 'assistant') ledger.startModelTurn();
      current = { role, content: [] };
      messages.push(current);
    }
    for (const part of content.parts) {
      const providerPart = providerToolParts.find((field) => part[field] !== undefined);
      if (providerPart) dropped?.add(providerPart);
      else appendPart(current, part, ledger);
    }
  }
  return messages.filter((message) => message.content.length > 0);
}

function appendPart(message: ChatMessage, part: Part, ledger: CallLedger): void {
  const into = message.content;
  const isModel = message.role === 'assistant';
  if (part.text !== undefined && part.thought === true) {
    appendThought(into, part.text, isModel ? part.thoughtSignature : undefined);
    return;
  }
  if (isModel && part.thoughtSignature) appendSignature(into, part.thoughtSignature);
  if (part.text !== undefined) {
    if (part.text !== '') into.push({ type: 'text', text: part.text });
  } else if (part.inlineData) {
    into.push({ type: 'media', mediaType: part.inlineData.mimeType, data: part.inlineData.data });
  } else if (part.fileData) {
    into.push(fileMedia(part.fileData.mimeType, part.fileData.fileUri, part.fileData.displayName));
  } else if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    into.push({ type: 'tool_call', id: ledger.call(id, name), name, input: args ?? {} });
  } else if (part.functionResponse) {
    into.push(toolResult(part.functionResponse, ledger));
  }
}

function fileMedia(mimeType: string, url: string, title: string | undefined): MediaPart {
  return title ? { type: 'media', mediaType: mimeType, url, title } : { type: 'media', mediaType: mimeType, url };
}

/** Consecutive thought parts (a streamed thought kept chunk by chunk) are one thought. */
function appendThought(into: ContentPart[], text: string, signature: string | undefined): void {
  const last = into[into.length - 1];
  if (last?.type === 'thinking' && last.signature === undefined && last.redactedData === undefined) last.text += text;
  else into.push({ type: 'thinking', text });
  if (signature) (into[into.length - 1] as ThinkingPart).signature = signature;
}

/** The service's documented placeholder for a lost signature: nothing to carry. */
const SKIP_SIGNATURE = 'skip_thought_signature_validator';

function appendSignature(into: ContentPart[], signature: string): void {
  if (signature === SKIP_SIGNATURE) return;
  const carried = unwrapThought(signature);
  if (carried) {
    into.push(carried);
    return;
  }
  const last = into[into.length - 1];
  if (last?.type === 'thinking' && last.signature === undefined && last.redactedData === undefined) last.signature = signature;
  else into.push({ type: 'thinking', text: '', signature });
}

function toolResult(response: FunctionResponse, ledger: CallLedger): ToolResultPart {
  const { text, isError } = responseText(response.response);
  const content: Array<TextPart | MediaPart> = text === '' ? [] : [{ type: 'text', text }];
  for (const inner of response.parts ?? []) {
    if (inner.inlineData) content.push({ type: 'media', mediaType: inner.inlineData.mimeType, data: inner.inlineData.data });
    else if (inner.fileData) content.push(fileMedia(inner.fileData.mimeType, inner.fileData.fileUri, inner.fileData.displayName));
  }
  const part: ToolResultPart = { type: 'tool_result', callId: ledger.answer(response.id, response.name), name: response.name, content };
  if (isError) part.isError = true;
  return part;
}

/**
 * The response object as text: its `output` or `content` string when that is
 * what it holds (the shapes the official clients build), an `error` marks a
 * failed call, anything else is the object's JSON.
 */
function responseText(response: Record<string, unknown>): { text: string; isError: boolean } {
  const keys = Object.keys(response).filter((key) => key !== 'name');
  if (keys.length === 1) {
    const value = response[keys[0]];
    if ((keys[0] === 'output' || keys[0] === 'content' || keys[0] === 'result') && typeof value === 'string') {
      return { text: value, isError: false };
    }
    if (keys[0] === 'error') return { text: typeof value === 'string' ? value : JSON.stringify(value), isError: true };
  }
  return { text: keys.length === 0 ? '' : JSON.stringify(response), isError: false };
}
