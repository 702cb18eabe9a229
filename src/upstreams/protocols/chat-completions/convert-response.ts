/**
 * Chat completion → ChatResponse. Only the first choice is read (the adapter
 * never asks for more). Reasoning (`reasoning_content` or `reasoning`) becomes
 * a thinking part ahead of the text, and `reasoning_details` one signed state
 * after it (reasoning-details.ts); a refusal becomes the text with the
 * `refusal` finish reason.
 */
import type { ChatResponse } from '../../../core/chat.js';
import { GatewayError } from '../../../core/errors.js';
import { mapFinishReason } from '../../../dialects/chat-completions/finish-reason.js';
import { parseToolArguments } from '../../tool-arguments.js';
import { DetailsCollector } from './reasoning-details.js';
import { newCompletionId, newToolCallId } from './ids.js';
import { usageFromChatCompletion } from '../../../dialects/chat-completions/usage.js';
import type { ChatCompletion } from '../../../dialects/chat-completions/wire.js';

export function fromChatCompletion(json: ChatCompletion, fallbackModel: string): ChatResponse {
  const choice = json?.choices?.[0];
  if (!choice?.message) throw new GatewayError('upstream_error', 'upstream answer has no choices[0].message', { retryable: true });
  const { message } = choice;
  const content: ChatResponse['content'] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) content.push({ type: 'thinking', text: reasoning });
  const details = new DetailsCollector();
  details.add(message.reasoning_details);
  const state = details.state();
  if (state) content.push(state);
  if (message.content) content.push({ type: 'text', text: message.content });
  if (message.refusal) content.push({ type: 'text', text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    const name = call.function?.name ?? '';
    content.push({ type: 'tool_call', id: call.id || newToolCallId(), name, input: parseToolArguments(call.function?.arguments, name) });
  }
  if (message.function_call?.name) {
    const { name, arguments: args } = message.function_call;
    content.push({ type: 'tool_call', id: newToolCallId(), name, input: parseToolArguments(args, name) });
  }
  return {
    id: json.id || newCompletionId(),
    model: json.model || fallbackModel,
    content,
    finishReason: message.refusal ? 'refusal' : mapFinishReason(choice.finish_reason),
    stopSequence: null,
    usage: usageFromChatCompletion(json.usage),
    ...(json.usage ? {} : { usageUnreported: true as const }),
  };
}
