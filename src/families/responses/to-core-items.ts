/**
 * Converts a conversation of Responses items into internal messages.
 *
 * - system and developer messages that open the conversation become the
 *   system prompt (after `instructions`); later ones are system turns at
 *   their place;
 * - user content and tool outputs form user turns, assistant text, function
 *   and custom tool calls and reasoning form assistant turns; consecutive
 *   items of one role form one turn; tool names are the flat names of
 *   tool-names.ts;
 * - reasoning becomes a thinking part; its proof comes back only from an
 *   `encrypted_content` the gateway wrote itself (see encrypted.ts);
 * - `additional_tools` items hold tools (read by to-core.ts), no turn;
 * - a `compaction` item the gateway sealed becomes its summary, as user text;
 *   a `compaction_trigger` makes the request a compaction (to-core.ts) and
 *   is no turn (see compaction.ts);
 * - records of hosted tool runs (web and file search, code interpreter,
 *   image generation, MCP calls) are dropped as hints: their effect is in the
 *   text that follows them; so are Codex's `configuration_update` notes;
 * - any other item (computer use, local shell, OpenAI's own compaction, tool search, types
 *   newer than this gateway) and OpenAI file ids are reported as features, so
 *   every translating upstream refuses them by name rather than drop input.
 */
import type { ChatMessage, ContentPart, MediaPart, TextPart } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { SourcedItem } from './conversation.js';
import { thinkingProof } from './encrypted.js';
import { summaryText } from './compaction.js';
import { parseDataUrl } from '../../dialects/openai/media-fields.js';
import type { MessagePart } from '../../dialects/responses/schema-content.js';
import {
  itemKind,
  type CustomToolCallItem,
  type CustomToolCallResultItem,
  type FunctionCallItem,
  type FunctionCallResultItem,
  type InputItem,
  type MessageItem,
  type ReasoningItem,
} from '../../dialects/responses/schema-items.js';
import { customInputField, ToolNames } from './tool-names.js';

export interface CoreConversation {
  system: string[];
  messages: ChatMessage[];
  /** What needs an upstream that speaks this dialect natively. */
  features: Record<string, unknown>;
  /** Items left out because they cannot change the answer. */
  hints: Record<string, unknown>;
  names: ToolNames;
}

/** Records of runs of hosted tools: the answer that follows already holds their effect. */
const hostedToolRecords = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools']);

/**
 * Codex 0.171's note to the model that its settings changed
 * (`{"type": "configuration_update", "reasoning": {...}}`): the request's own
 * fields already carry the settings in effect, so it is left out as a hint.
 */
const settingNotes = new Set(['configuration_update']);

/** The summary inside a compaction item the gateway sealed (undefined for any other). */
export type SummaryOpener = (item: InputItem) => string | undefined;

export function itemsToCore(items: readonly SourcedItem[], names = new ToolNames(), openSummary: SummaryOpener = () => undefined): CoreConversation {
  const out: CoreConversation = { system: [], messages: [], features: {}, hints: {}, names };
  for (const sourced of items) convertItem(sourced, out, openSummary);
  return out;
}

function convertItem(sourced: SourcedItem, out: CoreConversation, openSummary: SummaryOpener): void {
  const { item } = sourced;
  if (sourced.unresolved) {
    throw invalidRequest(`item_reference "${String(item.id)}" names no stored item of this key`, 'input');
  }
  const kind = itemKind(item) ?? 'unknown';
  switch (kind) {
    case 'message':
      return convertMessage(item as MessageItem, out);
    case 'function_call': {
      const call = item as FunctionCallItem;
      const name = out.names.flatName(call.name, call.namespace);
      return push(out, 'assistant', { type: 'tool_call', id: call.call_id, name, input: parseArguments(call) });
    }
    case 'custom_tool_call': {
      const call = item as CustomToolCallItem;
      const name = out.names.flatName(call.name, call.namespace, true);
      return push(out, 'assistant', { type: 'tool_call', id: call.call_id, name, input: { [customInputField]: call.input } });
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const result = item as FunctionCallResultItem | CustomToolCallResultItem;
      const content = typeof result.output === 'string' ? textParts(result.output) : result.output.map((part) => partToCore(part as MessagePart, out));
      return push(out, 'user', { type: 'tool_result', callId: result.call_id, content: content as Array<TextPart | MediaPart> });
    }
    case 'reasoning':
      return convertReasoning(item as ReasoningItem, out);
    case 'additional_tools':
    case 'compaction_trigger':
      return;
    case 'compaction': {
      const summary = openSummary(item);
      if (summary === undefined) out.features['input item compaction'] = true;
      else push(out, 'user', { type: 'text', text: summaryText(summary) });
      return;
    }
    default:
      if (hostedToolRecords.has(kind) || settingNotes.has(kind)) out.hints[`input item ${kind}`] = true;
      else out.features[`input item ${kind}`] = true;
  }
}

function convertMessage(message: MessageItem, out: CoreConversation): void {
  const parts: ContentPart[] = typeof message.content === 'string' ? textParts(message.content) : message.content.map((part) => partToCore(part as MessagePart, out));
  if (message.role === 'system' || message.role === 'developer') {
    const text = parts.map((part) => {
      if (part.type !== 'text') throw invalidRequest(`${message.role} messages may hold text only`, 'input');
      return part.text;
    });
    if (text.length === 0) return;
    // Instructions opening the conversation join the system prompt; later ones keep their place.
    if (out.messages.length === 0) out.system.push(text.join('\n'));
    else for (const line of text) push(out, 'system', { type: 'text', text: line });
    return;
  }
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  for (const part of parts) push(out, role, part);
}

function partToCore(part: MessagePart, out: CoreConversation): TextPart | MediaPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
      return imagePart(part, out);
    case 'input_file':
      return filePart(part, out);
  }
}

function imagePart(part: Extract<MessagePart, { type: 'input_image' }>, out: CoreConversation): MediaPart {
  if (part.image_url) {
    const inline = parseDataUrl(part.image_url);
    if (inline) return { type: 'media', mediaType: inline.mediaType, data: inline.data };
    return { type: 'media', mediaType: mediaTypeFromName(part.image_url, 'image/*'), url: part.image_url };
  }
  // A stored OpenAI file: only a native upstream can read it, so the feature refuses every other one
  // before this placeholder part could reach it (it still counts as one image in estimates).
  out.features['input_image file_id'] = true;
  return { type: 'media', mediaType: 'image/*', url: `file_id:${String(part.file_id)}` };
}

function filePart(part: Extract<MessagePart, { type: 'input_file' }>, out: CoreConversation): MediaPart {
  const filename = part.filename ? { filename: part.filename } : {};
  if (part.file_data) {
    const inline = parseDataUrl(part.file_data);
    if (inline) return { type: 'media', mediaType: inline.mediaType, data: inline.data, ...filename };
    return { type: 'media', mediaType: mediaTypeFromName(part.filename ?? '', 'application/pdf'), data: part.file_data, ...filename };
  }
  if (part.file_url) return { type: 'media', mediaType: mediaTypeFromName(part.file_url, 'application/pdf'), url: part.file_url, ...filename };
  // As for images: refused on every upstream but a native one.
  out.features['input_file file_id'] = true;
  return { type: 'media', mediaType: 'application/octet-stream', url: `file_id:${String(part.file_id)}`, ...filename };
}

const typesByExtension: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
};

function mediaTypeFromName(name: string, fallback: string): string {
  const path = name.split(/[?#]/, 1)[0];
  const dot = path.lastIndexOf('.');
  return (dot >= 0 && typesByExtension[path.slice(dot + 1).toLowerCase()]) || fallback;
}

function convertReasoning(item: ReasoningItem, out: CoreConversation): void {
  // The gateway's sealed proof is opened by the pipeline (it carries the thought when no summary shows it).
  const proof = thinkingProof({ signature: item.encrypted_content ?? undefined });
  const text = item.summary.map((part) => part.text).join('\n\n');
  if (text === '' && !proof) return;
  push(out, 'assistant', proof ? { type: 'thinking', text, signature: proof } : { type: 'thinking', text });
}

function parseArguments(call: FunctionCallItem): Record<string, unknown> {
  if (call.arguments.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    throw invalidRequest(`function_call "${call.name}" (call_id ${call.call_id}) has arguments that are not valid JSON`, 'input');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidRequest(`function_call "${call.name}" (call_id ${call.call_id}) has arguments that are not a JSON object`, 'input');
  }
  return parsed as Record<string, unknown>;
}

function textParts(text: string): TextPart[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/** Appends to the last turn when it has the same role, else starts a turn. */
function push(out: CoreConversation, role: ChatMessage['role'], part: ContentPart): void {
  const last = out.messages[out.messages.length - 1];
  if (last && last.role === role) last.content.push(part);
  else out.messages.push({ role, content: [part] });
}
