/**
 * Chat Completions messages → internal conversation.
 *
 * - System and developer messages before the first other message form the
 *   system prompt; later ones stay in place as system turns.
 * - Tool messages (and the legacy `function` role) become tool results in the
 *   user turn that follows the assistant's calls; a user message right after
 *   them joins the same turn.
 * - `reasoning_details` on an assistant message are its thoughts with their
 *   sealed state (reasoning-details.ts); without them, `reasoning_content`
 *   is a thought without a signature: upstreams that need one leave it out.
 * - Parts the internal representation cannot carry (stored files, unknown
 *   part types) become features, so every translating upstream refuses them
 *   by name before routing, while an `openai-chat` channel gets them as sent.
 * - `cache_control` (an extension opencode sends for Claude models, on a
 *   message or on its parts) marks the end of that message: its last part
 *   carries the cache mark; on leading system messages it marks the system prompt.
 */
import type { CacheMark } from '../../core/cache-intent.js';
import type { ChatMessage, ContentPart, MediaPart, TextPart } from '../../core/chat.js';
import { longerMark } from '../../core/prompt-cache.js';
import { cacheMarkOf } from '../../dialects/messages/cache-control.js';
import { parseToolArguments } from '../../upstreams/tool-arguments.js';
import { invalidParam } from '../../dialects/openai/validate-issue.js';
import { parseDataUrl } from '../../dialects/openai/media-fields.js';
import type { AssistantMessage, ContentPartParam, MessageParam } from '../../dialects/chat-completions/schema-messages.js';
import { thoughtsOfDetails } from './reasoning-details.js';

export interface CoreConversation {
  system: string[];
  messages: ChatMessage[];
  features: Record<string, unknown>;
  /** The cache mark of the system prompt (a leading system message carried one). */
  systemMark?: CacheMark;
}

export function messagesToCore(messages: readonly MessageParam[]): CoreConversation {
  const out: CoreConversation = { system: [], messages: [], features: {} };
  const callNames = new Map<string, string>();
  let leading = true;
  messages.forEach((message, i) => {
    const isSystem = message.role === 'system' || message.role === 'developer';
    if (!isSystem) leading = false;
    const mark = messageMark(message);
    if (!mark) return convertMessage(out, message, i, leading, callNames);
    if (isSystem && leading) {
      out.systemMark = longerMark(out.systemMark, mark);
      return convertMessage(out, message, i, leading, callNames);
    }
    const before = partCount(out);
    convertMessage(out, message, i, leading, callNames);
    const last = out.messages.at(-1)?.content.at(-1);
    if (partCount(out) > before && last && last.type !== 'thinking') last.cache = mark;
  });
  return out;
}

/** The message's own mark, or the longest of its parts' marks. */
function messageMark(message: MessageParam): CacheMark | undefined {
  let mark = cacheMarkOf(message);
  if (Array.isArray(message.content)) for (const part of message.content as unknown[]) mark = longerMark(mark, cacheMarkOf(part));
  return mark;
}

function partCount(out: CoreConversation): number {
  return out.messages.reduce((sum, message) => sum + message.content.length, 0);
}

function convertMessage(out: CoreConversation, message: MessageParam, i: number, leading: boolean, callNames: Map<string, string>): void {
  switch (message.role) {
    case 'system':
    case 'developer': {
      const text = textOf(message.content);
      if (leading) {
        if (text !== '') out.system.push(text);
      } else out.messages.push({ role: 'system', content: [{ type: 'text', text }] });
      return;
    }
    case 'user':
      for (const part of userParts(message.content, out)) push(out, 'user', part);
      return;
    case 'assistant':
      for (const part of assistantParts(message, i, callNames, out)) push(out, 'assistant', part);
      return;
    case 'tool':
      push(out, 'user', { type: 'tool_result', callId: message.tool_call_id, name: callNames.get(message.tool_call_id), content: [{ type: 'text', text: textOf(message.content) }] });
      return;
    case 'function':
      push(out, 'user', { type: 'tool_result', callId: legacyCallId(message.name), name: message.name, content: [{ type: 'text', text: message.content ?? '' }] });
      return;
  }
}

/** The legacy single function call has no id; the call and its result share one made from the name. */
export function legacyCallId(name: string): string {
  return `call_${name}`;
}

function textOf(content: string | ContentPartParam[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? String(part.text) : part.type === 'refusal' ? String(part.refusal) : '')).join('');
}

function userParts(content: string | ContentPartParam[], out: CoreConversation): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => userPart(part, out)).filter((part) => part !== undefined);
}

const audioTypes: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg' };

function userPart(part: ContentPartParam, out: CoreConversation): TextPart | MediaPart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text) };
    case 'image_url': {
      const url = (part.image_url as { url: string }).url;
      const inline = parseDataUrl(url);
      if (inline) return { type: 'media', mediaType: inline.mediaType, data: inline.data };
      return { type: 'media', mediaType: 'image/*', url };
    }
    case 'input_audio': {
      const audio = part.input_audio as { data: string; format: string };
      return { type: 'media', mediaType: audioTypes[audio.format] ?? `audio/${audio.format}`, data: audio.data };
    }
    case 'file':
      return filePart(part.file as { file_data?: string | null; file_id?: string | null; filename?: string | null }, out);
    default:
      out.features[`content part ${part.type}`] = true;
      return undefined;
  }
}

function filePart(file: { file_data?: string | null; file_id?: string | null; filename?: string | null }, out: CoreConversation): MediaPart {
  const filename = file.filename ? { filename: file.filename } : {};
  if (file.file_data != null) {
    const inline = parseDataUrl(file.file_data);
    if (inline) return { type: 'media', mediaType: inline.mediaType, data: inline.data, ...filename };
    return { type: 'media', mediaType: 'application/pdf', data: file.file_data, ...filename };
  }
  // A file stored with OpenAI: only an openai-chat channel can read it.
  out.features['file.file_id'] = true;
  return { type: 'media', mediaType: 'application/octet-stream', url: `file_id:${String(file.file_id)}`, ...filename };
}

function assistantParts(message: AssistantMessage, i: number, callNames: Map<string, string>, out: CoreConversation): ContentPart[] {
  const parts: ContentPart[] = [];
  const callIds = new Set((message.tool_calls ?? []).map((call) => call.id));
  const read = message.reasoning_details?.length ? thoughtsOfDetails(message.reasoning_details, callIds) : undefined;
  const thoughts = read && (read.leading.length > 0 || read.beforeCall.size > 0) ? read : undefined;
  if (thoughts) parts.push(...thoughts.leading);
  else if (message.reasoning_content) parts.push({ type: 'thinking', text: message.reasoning_content });
  const text = textOf(message.content) || (message.refusal ?? '');
  if (text !== '') parts.push({ type: 'text', text });
  (message.tool_calls ?? []).forEach((call, j) => {
    if (call.type !== 'function') {
      out.features[`tool call ${call.type}`] = true;
      return;
    }
    callNames.set(call.id, call.function.name);
    parts.push(...(thoughts?.beforeCall.get(call.id) ?? []));
    parts.push({ type: 'tool_call', id: call.id, name: call.function.name, input: callInput(call.function, ['messages', i, 'tool_calls', j, 'function', 'arguments']) });
  });
  if (message.function_call) {
    const { name } = message.function_call;
    callNames.set(legacyCallId(name), name);
    parts.push({ type: 'tool_call', id: legacyCallId(name), name, input: callInput(message.function_call, ['messages', i, 'function_call', 'arguments']) });
  }
  return parts;
}

/** The call's arguments as the object they encode; text that is not a JSON object is the client's error. */
function callInput(fn: { name: string; arguments: string }, path: Array<string | number>): Record<string, unknown> {
  try {
    return parseToolArguments(fn.arguments, fn.name);
  } catch {
    throw invalidParam(path, 'must be a JSON object encoded as a string');
  }
}

function push(out: CoreConversation, role: ChatMessage['role'], part: ContentPart): void {
  const last = out.messages[out.messages.length - 1];
  if (last && last.role === role) last.content.push(part);
  else out.messages.push({ role, content: [part] });
}
