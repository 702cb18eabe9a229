/**
 * A Converse answer → ChatResponse. Text, tool calls and reasoning
 * (`reasoningContent`: its text and signature, or redacted content) become
 * parts; blocks with no place in the internal representation (images the
 * model made, citations content) are left out. The answer has no id: one is
 * made.
 */
import type { ChatResponse, TextPart, ThinkingPart, ToolCallPart } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { finishReasonOf, newConverseId, stopSequenceOf, usageFromConverse } from './usage.js';
import type { ContentBlock, ConverseResponse } from './wire.js';

export function fromConverseResponse(json: ConverseResponse, model: string): ChatResponse {
  const blocks = json?.output?.message?.content;
  if (!Array.isArray(blocks)) throw new GatewayError('upstream_error', 'upstream answer is not a Converse response (no output message content)', { retryable: true });
  const content: ChatResponse['content'] = [];
  for (const block of blocks) {
    const part = toPart(block);
    if (part) content.push(part);
  }
  return {
    id: newConverseId(),
    model,
    content,
    finishReason: finishReasonOf(json.stopReason),
    stopSequence: stopSequenceOf(json.additionalModelResponseFields),
    usage: usageFromConverse(json.usage),
  };
}

function toPart(block: ContentBlock): TextPart | ThinkingPart | ToolCallPart | undefined {
  if (!block || typeof block !== 'object') return undefined;
  if ('text' in block && typeof block.text === 'string') return { type: 'text', text: block.text };
  if ('toolUse' in block && block.toolUse) {
    const { toolUseId, name, input } = block.toolUse;
    return { type: 'tool_call', id: toolUseId, name, input: input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {} };
  }
  if ('reasoningContent' in block && block.reasoningContent) {
    const reasoning = block.reasoningContent;
    if ('redactedContent' in reasoning) return { type: 'thinking', text: '', redactedData: reasoning.redactedContent };
    const { text, signature } = reasoning.reasoningText ?? { text: '' };
    return signature ? { type: 'thinking', text: text ?? '', signature } : { type: 'thinking', text: text ?? '' };
  }
  return undefined;
}
