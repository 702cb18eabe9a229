/**
 * Renders an internal ChatResponse as Responses output items, the same way
 * the stream encoder builds them event by event:
 * - consecutive text parts form one `message` item, one `output_text` part each;
 * - each tool call is a `function_call` item (its `call_id` is the internal id)
 *   under the client's own tool name: a namespaced function gets its
 *   `namespace` back, a custom tool call is a `custom_tool_call` item whose
 *   `input` is the call's one string argument (see tool-names.ts);
 * - each thinking part is a `reasoning` item: its text as a summary when the
 *   client asked for summaries, its proof in `encrypted_content` (see encrypted.ts);
 * - an answer refused without any text gets a message holding one empty refusal.
 * The last message of an answer cut at the token limit is marked `incomplete`.
 */
import type { ChatResponse, FinishReason, ThinkingPart, ToolCallPart } from '../../core/chat.js';
import { thinkingProof } from './encrypted.js';
import { newResponsesId } from './ids.js';
import { customInputField, ToolNames } from './tool-names.js';
import type { CustomToolCallOutputItem, FunctionCallOutputItem, MessageOutputItem, OutputItem, OutputTextContent, ReasoningOutputItem } from '../../dialects/responses/wire.js';

export interface RenderOptions {
  /** Whether reasoning items carry the thought as a summary. */
  summaries: boolean;
  /** The flat tool names the request was translated with. */
  toolNames?: ToolNames;
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
    items.push(part.type === 'tool_call' ? toolCallItem(part, options.toolNames ?? new ToolNames()) : reasoningItem(part, options));
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

/** The item of a finished tool call, under the client's name for the tool. */
export function toolCallItem(part: ToolCallPart, names: ToolNames): FunctionCallOutputItem | CustomToolCallOutputItem {
  const identity = names.identity(part.name);
  if (identity.custom) return customToolCallItem(part.id, identity, customInput(part.input));
  return functionCallItem(part.id, identity, JSON.stringify(part.input));
}

type Named = { name: string; namespace?: string };

/** `namespace` only when the tool has one, before the name as the API writes it. */
const naming = (identity: Named) => (identity.namespace ? { namespace: identity.namespace, name: identity.name } : { name: identity.name });

export function functionCallItem(callId: string, identity: Named, args: string, id = newResponsesId('fc')): FunctionCallOutputItem {
  return { id, type: 'function_call', status: 'completed', call_id: callId, ...naming(identity), arguments: args };
}

export function customToolCallItem(callId: string, identity: Named, input: string, id = newResponsesId('ctc')): CustomToolCallOutputItem {
  return { id, type: 'custom_tool_call', status: 'completed', call_id: callId, ...naming(identity), input };
}

/** A custom tool's input: the stand-in function's one string argument (anything else the model wrote, as JSON). */
export function customInput(args: Record<string, unknown>): string {
  const value = args[customInputField];
  if (typeof value === 'string') return value;
  const values = Object.values(args);
  if (values.length === 1 && typeof values[0] === 'string') return values[0];
  return Object.keys(args).length === 0 ? '' : JSON.stringify(args);
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
