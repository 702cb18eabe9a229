/**
 * Internal messages → chat-completions `messages`.
 *
 * - System turns stay at their place as `system` messages (channel setting
 *   `systemRole: 'developer'` sends `developer` messages instead, for
 *   servers that want that role), as does the leading system prompt.
 * - Tool results become `role: "tool"` messages right after the assistant
 *   turn (before the rest of the user turn, as the API requires). A tool
 *   message carries text only, so images and files a tool returned (Claude
 *   Code's Read tool returns images) follow in one user message right after
 *   the tool messages, each group introduced by the call id; the tool
 *   message says they follow (a `mapped` decision). Text documents join the
 *   tool message's text.
 * - Media in assistant turns, and media types this dialect has no part for
 *   (images, inline wav/mp3 audio, inline PDF and text only), are refused.
 *   `isError` has no field (the text says it).
 * - Thinking parts are dropped: plain chat completions has no field to send
 *   a previous turn's reasoning back. A channel with the setting
 *   `reasoningContent: true` (DeepSeek-style servers in thinking mode, which
 *   refuse a tool-call turn whose `reasoning_content` is missing) gets the
 *   turn's thought text as `reasoning_content`, empty on a tool-call turn
 *   with no thought. `reasoning_details` an openai-chat upstream gave on a
 *   turn go back on it as they came (reasoning-details.ts).
 */
import type { ChatMessage, ChatRequest, MediaPart, ToolResultPart } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import { detailsOfTurn } from './reasoning-details.js';
import type { ChatCompletionsSettings } from './settings.js';

type Json = Record<string, unknown>;

/** The rank of this upstream's own decisions, after the shared ones (core/translation-plan.ts). */
const RANK = { assistantMedia: PlanRank.rules, toolResultMedia: PlanRank.rules + 1, mediaType: PlanRank.rules + 2 };

/** Records a decision made once however many parts call for it. */
function once(plan: PlanBuilder, field: string, treatment: 'mapped' | 'refused', note: string, rank: number): void {
  if (plan.has(field, treatment)) return;
  if (treatment === 'mapped') plan.mapped(field, note, rank);
  else plan.refused(field, note, rank);
}

/** `origin`: the reasoning origin whose `reasoning_details` go back (reasoning-details.ts). */
export function toChatMessages(request: ChatRequest, settings: ChatCompletionsSettings, origin: string, plan: PlanBuilder): Json[] {
  const { systemRole } = settings;
  const messages: Json[] = [];
  if (request.system) messages.push({ role: systemRole, content: request.system });
  for (const message of request.messages) {
    if (message.role === 'system') {
      // Media have no place in a system message; one this dialect could not take at all is refused.
      for (const part of message.content) if (part.type === 'media') mediaPart(part, plan);
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
      if (text !== '') messages.push({ role: systemRole, content: text });
    } else if (message.role === 'assistant') {
      const assistant = toAssistantMessage(message, settings.reasoningContent, origin, plan);
      if (assistant) messages.push(assistant);
    } else appendUserTurn(messages, message, plan);
  }
  return messages;
}

function appendUserTurn(messages: Json[], message: ChatMessage, plan: PlanBuilder): void {
  const followUp: Json[] = [];
  const rest: Json[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') messages.push(toToolMessage(part, followUp, plan));
    else if (part.type === 'text') rest.push({ type: 'text', text: part.text });
    else if (part.type === 'media') rest.push(mediaPart(part, plan));
    // A user turn carries no tool calls or thinking; anything else is ignored.
  }
  const content = [...followUp, ...rest];
  if (content.length > 0) messages.push({ role: 'user', content: userContent(content) });
}

function toAssistantMessage(message: ChatMessage, sendReasoning: boolean, origin: string, plan: PlanBuilder): Json | undefined {
  let text = '';
  let reasoning = '';
  const toolCalls: Json[] = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'thinking') reasoning += part.text;
    else if (part.type === 'tool_call') toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } });
    else if (part.type === 'media') once(plan, 'media in assistant turns', 'refused', 'carries text only in assistant messages', RANK.assistantMedia);
  }
  if (text === '' && toolCalls.length === 0) return undefined;
  const result: Json = { role: 'assistant', content: text === '' ? null : text };
  if (sendReasoning && (reasoning !== '' || toolCalls.length > 0)) result.reasoning_content = reasoning;
  const details = detailsOfTurn(message.content, origin);
  if (details.length > 0) result.reasoning_details = details;
  if (toolCalls.length > 0) result.tool_calls = toolCalls;
  return result;
}

/** The tool message; the result's images and files go to `followUp`, the user message after the tool messages. */
function toToolMessage(part: ToolResultPart, followUp: Json[], plan: PlanBuilder): Json {
  const texts: string[] = [];
  const media: MediaPart[] = [];
  for (const inner of part.content) {
    if (inner.type === 'media') once(plan, 'media in tool results', 'mapped', 'tool messages carry the text; the media follow in a user message after them', RANK.toolResultMedia);
    const text = inner.type === 'text' ? inner.text : documentText(inner);
    if (text !== undefined) texts.push(text);
    else media.push(inner as MediaPart);
  }
  if (media.length > 0) {
    const types = media.map((item) => item.mediaType).join(', ');
    const count = media.length === 1 ? 'one attachment' : `${media.length} attachments`;
    texts.push(`[${count} (${types}) ${media.length === 1 ? 'follows' : 'follow'} in the next user message]`);
    followUp.push({ type: 'text', text: `Attachments returned by tool call ${part.callId}:` }, ...media.map((item) => mediaPart(item, plan)));
  }
  return { role: 'tool', tool_call_id: part.callId, content: texts.join('\n') };
}

/** A plain-text document's text, which any message can carry as text. */
function documentText(part: MediaPart): string | undefined {
  if (part.text !== undefined) return part.title ? `${part.title}\n\n${part.text}` : part.text;
  if (part.mediaType.startsWith('text/') && part.data !== undefined) return Buffer.from(part.data, 'base64').toString('utf8');
  return undefined;
}

/** A lone text part is sent as a plain string: some compatible servers accept nothing else. */
function userContent(parts: Json[]): string | Json[] {
  if (parts.length === 1 && parts[0].type === 'text') return parts[0].text as string;
  return parts;
}

const audioFormats: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3' };

/** The content part of a media part; one this dialect has no part for is refused (an empty text stands in the body, which is then never sent). */
function mediaPart(part: MediaPart, plan: PlanBuilder): Json {
  const { mediaType } = part;
  if (mediaType.startsWith('image/')) {
    const url = part.data !== undefined ? `data:${mediaType};base64,${part.data}` : part.url;
    if (url !== undefined) return { type: 'image_url', image_url: { url } };
  } else {
    if (audioFormats[mediaType] && part.data !== undefined) return { type: 'input_audio', input_audio: { data: part.data, format: audioFormats[mediaType] } };
    if (mediaType === 'application/pdf' && part.data !== undefined) return { type: 'file', file: { filename: part.filename ?? 'document.pdf', file_data: `data:${mediaType};base64,${part.data}` } };
    const text = documentText(part);
    if (text !== undefined) return { type: 'text', text };
  }
  once(plan, `media type ${mediaType}`, 'refused', 'accepts images, inline wav/mp3 audio, inline PDF files and text only', RANK.mediaType);
  return { type: 'text', text: '' };
}
