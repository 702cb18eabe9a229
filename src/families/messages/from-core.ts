/**
 * Renders an internal ChatResponse as the Messages message object.
 */
import type { ChatResponse, TextPart, ThinkingPart, ToolCallPart } from '../../core/chat.js';
import { toMessageId } from './message-id.js';
import { toStopReason, toStopSequence } from '../../dialects/messages/finish-reason.js';
import { renderUsage } from '../../dialects/messages/usage.js';
import type { MessagesContentBlock, MessagesResponse } from '../../dialects/messages/wire.js';

export function renderMessage(res: ChatResponse, clientModel: string): MessagesResponse {
  const content: MessagesContentBlock[] = [];
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

export function renderBlock(part: TextPart | ThinkingPart | ToolCallPart): MessagesContentBlock | undefined {
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
