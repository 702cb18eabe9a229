/**
 * Renders an internal ChatResponse as Responses output items, the same way
 * the stream encoder builds them event by event:
 * - consecutive text parts form one `message` item, one `output_text` part each;
 * - each tool call is a `function_call` item (its `call_id` is the internal id);
 * - each thinking part is a `reasoning` item: its text as a summary when the
 *   client asked for summaries, its proof in `encrypted_content` (see encrypted.ts);
 * - an answer refused without any text gets a message holding one empty refusal.
 * The last message of an answer cut at the token limit is marked `incomplete`.
 */
import type { ChatResponse, FinishReason, ThinkingPart, ToolCallPart } from '../../core/chat.js';
import { thinkingProof } from './encrypted.js';
import { newResponsesId } from './ids.js';
import type { FunctionCallOutputItem, MessageOutputItem, OutputItem, OutputTextContent, ReasoningOutputItem } from './wire.js';

export interface RenderOptions {
  /** Whether reasoning items carry the thought as a summary. */
  summaries: boolean;
}

export function outputFromCore(response: ChatResponse, options: RenderOptions): OutputItem[] {
  const items: OutputItem[] = [];
  let message: MessageOutputItem | undefined;
  for (const part of response.content) {
    if (part.type === 'text') {
      if (!message) {
        message = newMessageItem('completed');
        items.push(message);
      }
      message.content.push(outputText(part.text));
      continue;
    }
    message = undefined;
    items.push(part.type === 'tool_call' ? functionCallItem(part) : reasoningItem(part, options));
  }
  if (response.finishReason === 'refusal' && !items.some((item) => item.type === 'message')) items.push(refusalMessage());
  markCut(items, response.finishReason);
  return items;
}

export function newMessageItem(status: MessageOutputItem['status']): MessageOutputItem {
  return { id: newResponsesId('msg'), type: 'message', status, role: 'assistant', content: [] };
}

export function outputText(text: string): OutputTextContent {
  return { type: 'output_text', text, annotations: [], logprobs: [] };
}

export function refusalMessage(): MessageOutputItem {
  const message = newMessageItem('completed');
  message.content.push({ type: 'refusal', refusal: '' });
  return message;
}

export function functionCallItem(part: ToolCallPart, id = newResponsesId('fc')): FunctionCallOutputItem {
  return { id, type: 'function_call', status: 'completed', call_id: part.id, name: part.name, arguments: JSON.stringify(part.input) };
}

export function reasoningItem(part: ThinkingPart, options: RenderOptions, id = newResponsesId('rs')): ReasoningOutputItem {
  const item: ReasoningOutputItem = {
    id,
    type: 'reasoning',
    summary: options.summaries && part.text !== '' ? [{ type: 'summary_text', text: part.text }] : [],
  };
  const proof = thinkingProof(part);
  if (proof !== undefined) item.encrypted_content = proof;
  return item;
}

/** An answer cut at the token limit leaves its last message unfinished (a cut tool call is never produced). */
export function markCut(items: OutputItem[], reason: FinishReason): void {
  const last = items[items.length - 1];
  if (reason === 'length' && last?.type === 'message') last.status = 'incomplete';
}
