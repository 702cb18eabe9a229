/**
 * Renders an internal ChatResponse as the Messages message object.
 */
import type { ChatResponse, TextPart, ThinkingPart, ToolCallPart } from '../../core/chat.js';
import { toMessageId } from './message-id.js';
import { toStopReason, toStopSequence, type StopReason } from '../../dialects/messages/finish-reason.js';
import { renderUsage, type RenderedMessagesUsage } from '../../dialects/messages/usage.js';

export type MessagesResponseBlock =
  | { type: 'text'; text: string; citations?: unknown[] }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface MessagesMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesResponseBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: RenderedMessagesUsage;
}

export function renderMessage(res: ChatResponse, clientModel: string): MessagesMessage {
  const content: MessagesResponseBlock[] = [];
  for (const part of res.content) {
    const block = renderBlock(part);
    if (block) content.push(block);
  }
  return {
    id: toMessageId(res.id),
    type: 'message',
    role: 'assistant',
    model: clientModel,
    content,
    stop_reason: toStopReason(res.finishReason),
    stop_sequence: toStopSequence(res.finishReason, res.stopSequence),
    usage: renderUsage(res.usage),
  };
}

export function renderBlock(part: TextPart | ThinkingPart | ToolCallPart): MessagesResponseBlock | undefined {
  switch (part.type) {
    case 'text':
      // The dialect's text blocks are never empty.
      if (part.text.length === 0) return undefined;
      return part.citations ? { type: 'text', text: part.text, citations: part.citations } : { type: 'text', text: part.text };
    case 'thinking':
      if (part.redactedData !== undefined) return { type: 'redacted_thinking', data: part.redactedData };
      // Clients validate that `signature` is a string, even for upstreams that sign nothing.
      return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.input };
  }
}
