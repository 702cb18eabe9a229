/**
 * Anthropic Messages answer → ChatResponse. Server-side tool blocks
 * (server_tool_use, web_search_tool_result, code execution results…) have no
 * place in the internal representation: they are left out, their effect shows
 * in the text blocks (and their citations) that follow.
 */
import type { ChatResponse, TextPart, ThinkingPart, ToolCallPart } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { mapStopReason } from '../../../dialects/messages/finish-reason.js';
import { usageFromMessages } from '../../../dialects/messages/usage.js';
import type { MessagesContentBlock, MessagesResponse } from '../../../dialects/messages/wire.js';

export function fromMessagesResponse(json: MessagesResponse, fallbackModel: string): ChatResponse {
  if (!json || !Array.isArray(json.content)) throw new GatewayError('upstream_error', 'upstream answer is not a Messages object (no content array)', { retryable: true });
  const content: ChatResponse['content'] = [];
  for (const block of json.content) {
    const part = toPart(block);
    if (part) content.push(part);
  }
  return {
    id: json.id,
    model: json.model || fallbackModel,
    content,
    finishReason: mapStopReason(json.stop_reason),
    stopSequence: json.stop_sequence ?? null,
    usage: usageFromMessages(json.usage),
  };
}

function toPart(block: MessagesContentBlock): TextPart | ThinkingPart | ToolCallPart | undefined {
  switch (block.type) {
    case 'text': {
      const { text, citations } = block as { text: string; citations?: unknown[] | null };
      return citations?.length ? { type: 'text', text, citations } : { type: 'text', text };
    }
    case 'thinking': {
      const { thinking, signature } = block as { thinking: string; signature?: string };
      return signature ? { type: 'thinking', text: thinking, signature } : { type: 'thinking', text: thinking };
    }
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redactedData: (block as { data: string }).data };
    case 'tool_use': {
      const { id, name, input } = block as { id: string; name: string; input: Record<string, unknown> | null };
      return { type: 'tool_call', id, name, input: input ?? {} };
    }
    default:
      return undefined;
  }
}
