/**
 * Anthropic refuses a request with thinking on whose last assistant turn
 * calls tools without starting with that turn's signed thought ("a final
 * assistant message must start with a thinking block"). A client whose
 * dialect cannot carry the signature back (Chat Completions), or whose
 * thought came from another provider, would hit that wall on every tool loop.
 * The turn is then sent with thinking off (a `mapped` decision in the plan):
 * the model still answers, it just does not think again mid-loop.
 */
import type { ChatRequest } from '../../../core/chat.js';

/** `origin`: the reasoning origin the serving endpoint takes back (a thought of another is no signed thought to it). */
export function thinkingBreaksContinuity(request: ChatRequest, origin: string): boolean {
  if (!request.thinking?.enabled) return false;
  let last: ChatRequest['messages'][number] | undefined;
  for (let i = request.messages.length - 1; i >= 0 && !last; i--) if (request.messages[i].role === 'assistant') last = request.messages[i];
  if (!last?.content.some((part) => part.type === 'tool_call')) return false;
  const first = last.content[0];
  const signed = first.type === 'thinking' && first.origin === origin && (first.signature !== undefined || first.redactedData !== undefined);
  return !signed;
}
