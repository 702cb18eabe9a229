/**
 * Renders an internal ChatResponse as a `chat.completion` object. Thoughts
 * surface as `reasoning_content`, where the popular OpenAI-compatible servers
 * put them, and with their sealed state as `reasoning_details`
 * (reasoning-details.ts), which a client sends back; a request made with the legacy `functions` gets its call as
 * `function_call`.
 */
import type { ChatResponse } from '../../core/chat.js';
import { toFinishReason } from '../../dialects/chat-completions/finish-reason.js';
import { renderUsage } from '../../dialects/chat-completions/usage.js';
import type { AnswerToolCall, ChatCompletionObject, CompletionMessage } from '../../dialects/chat-completions/wire.js';
import { nowSeconds, toCompletionId } from './answer-fields.js';
import { detailsOfAnswer } from './reasoning-details.js';

export interface RenderOptions {
  clientModel: string;
  legacyFunctions: boolean;
}

export function renderCompletion(res: ChatResponse, options: RenderOptions): ChatCompletionObject {
  let text = '';
  let reasoning = '';
  const toolCalls: AnswerToolCall[] = [];
  for (const part of res.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'thinking') reasoning += part.text;
    else toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input) } });
  }
  const message: CompletionMessage = { role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text, refusal: null };
  if (reasoning !== '') message.reasoning_content = reasoning;
  const details = detailsOfAnswer(res.content);
  if (details.length > 0) message.reasoning_details = details;
  if (toolCalls.length > 0) {
    if (options.legacyFunctions) message.function_call = toolCalls[0].function;
    else message.tool_calls = toolCalls;
  }
  message.annotations = [];
  return {
    id: toCompletionId(res.id),
    object: 'chat.completion',
    created: nowSeconds(),
    model: options.clientModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toFinishReason(res.finishReason, options.legacyFunctions) }],
    usage: renderUsage(res.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
}
