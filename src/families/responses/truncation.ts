/**
 * The `truncation` rule on translated requests. With `disabled` an input over
 * the model's context window is a 400; with `auto` the oldest turns are
 * dropped until it fits (room is kept for `max_output_tokens`). The last user
 * turn is always kept, a kept conversation never starts with an assistant
 * turn, and tool results whose calls were dropped go with them.
 *
 * Counting tokens costs time, so it only happens when the input's size in
 * bytes (an upper bound of its token count) could exceed the window.
 */
import type { ChatMessage, ChatRequest, ContentPart } from '../../core/chat.js';
import { countRequestTokens } from '../../core/tokens.js';
import { OpenAIError } from '../../dialects/openai/errors.js';

export function applyTruncation(request: ChatRequest, window: number | undefined, mode: 'auto' | 'disabled'): void {
  if (window === undefined) return;
  const budget = mode === 'auto' ? Math.max(1, window - (request.maxTokens ?? 0)) : window;
  if (byteBound(request) <= budget) return;
  let tokens = countRequestTokens(request);
  if (tokens <= budget) return;
  if (mode === 'disabled') {
    throw new OpenAIError(
      'invalid_request',
      `Your input exceeds the context window of this model (${tokens} tokens over ${window}); shorten it or set truncation to "auto".`,
      'context_length_exceeded',
      { param: 'input' },
    );
  }
  while (tokens > budget && dropOldestTurn(request.messages)) tokens = countRequestTokens(request);
  if (tokens > budget) {
    throw new OpenAIError('invalid_request', `Your input exceeds the context window of this model even after truncation (${tokens} tokens over ${budget}).`, 'context_length_exceeded', {
      param: 'input',
    });
  }
}

/** Drops the first turn (and what depended on it); false when only the last user turn is left. */
function dropOldestTurn(messages: ChatMessage[]): boolean {
  if (messages.length <= 1) return false;
  messages.shift();
  while (messages.length > 1 && messages[0].role === 'assistant') messages.shift();
  const first = messages[0];
  if (first) {
    const calls = new Set<string>();
    for (const message of messages) for (const part of message.content) if (part.type === 'tool_call') calls.add(part.id);
    first.content = first.content.filter((part) => part.type !== 'tool_result' || calls.has(part.callId));
    if (first.content.length === 0 && messages.length > 1) messages.shift();
  }
  return true;
}

function byteBound(request: ChatRequest): number {
  let bytes = Buffer.byteLength(request.system ?? '');
  for (const message of request.messages) for (const part of message.content) bytes += partBytes(part);
  for (const tool of request.tools ?? []) bytes += Buffer.byteLength(JSON.stringify(tool));
  return bytes;
}

function partBytes(part: ContentPart): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return Buffer.byteLength(part.text);
    case 'media':
      // Counted at a fixed figure by the tokenizer; the bound only needs to stay above it.
      return part.text === undefined ? 100 : Buffer.byteLength(part.text);
    case 'tool_call':
      return Buffer.byteLength(part.name) + Buffer.byteLength(JSON.stringify(part.input));
    case 'tool_result':
      return part.content.reduce((sum, inner) => sum + partBytes(inner), 0);
  }
}
