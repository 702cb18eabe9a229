/**
 * Responses answer → ChatResponse. Messages give text parts (a refusal is its
 * text with the `refusal` finish reason), function calls give tool calls,
 * reasoning gives a thinking part (summary as text, id and encrypted content
 * packed in the signature; an empty one gives nothing). Hosted tool records (web and file search…) have no
 * internal form: their effect is in the text that follows them.
 */
import type { ChatResponse, ThinkingPart, ToolCallPart } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { errorFromFailedResponse } from '../../../dialects/responses/errors.js';
import { finishReasonOf } from '../../../dialects/responses/finish-reason.js';
import { parseToolArguments } from '../../tool-arguments.js';
import { packReasoning } from './reasoning-proof.js';
import { usageFromResponses } from '../../../dialects/responses/usage.js';
import type { WireOutputItem, WireResponse } from '../../../dialects/responses/wire.js';

export function fromResponsesResponse(json: WireResponse, fallbackModel: string): ChatResponse {
  if (!json || !Array.isArray(json.output)) throw new GatewayError('upstream_error', 'upstream answer is not a Responses object (no output array)', { retryable: true });
  if (json.status === 'failed') throw errorFromFailedResponse(json.error);
  const content: ChatResponse['content'] = [];
  let sawToolCall = false;
  let sawRefusal = false;
  for (const item of json.output) {
    if (item.type === 'message') {
      for (const part of item.content ?? []) {
        if (part.type === 'output_text') content.push({ type: 'text', text: part.text ?? '' });
        else if (part.type === 'refusal') {
          sawRefusal = true;
          content.push({ type: 'text', text: part.refusal ?? '' });
        }
      }
    } else if (item.type === 'function_call') {
      sawToolCall = true;
      content.push(toolCall(item));
    } else if (item.type === 'reasoning') {
      const part = thinking(item);
      if (part) content.push(part);
    }
  }
  return {
    id: json.id ?? '',
    model: json.model || fallbackModel,
    content,
    finishReason: finishReasonOf(json, sawToolCall, sawRefusal),
    stopSequence: null,
    usage: usageFromResponses(json.usage),
    ...(json.usage ? {} : { usageUnreported: true as const }),
  };
}

function toolCall(item: WireOutputItem): ToolCallPart {
  const name = item.name ?? '';
  return { type: 'tool_call', id: item.call_id ?? item.id ?? '', name, input: parseToolArguments(item.arguments, name) };
}

/** A reasoning item with neither summary nor encrypted content carries nothing to show or send back. */
export function thinking(item: WireOutputItem): ThinkingPart | undefined {
  const text = (item.summary ?? []).map((part) => part.text).join('\n\n');
  const signature = packReasoning(item.id, item.encrypted_content);
  if (signature) return { type: 'thinking', text, signature };
  return text === '' ? undefined : { type: 'thinking', text };
}
