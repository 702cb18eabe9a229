/**
 * Reasoning state in a Converse conversation. A thought goes back to the
 * model (`reasoningContent`) only when it carries the model's own proof (a
 * signature or redacted data) and came from this channel type: the model
 * refuses a signature it did not write, and unsigned thoughts (Nova,
 * DeepSeek) are not sent back at all. Which origins count is this one
 * function, so a change to how origins are named touches nothing else.
 */
import type { ChatRequest, ThinkingPart } from '../../../core/chat.js';

/** Whether a thought's state may go back to an upstream of `type`. */
export function stateGoesBack(part: ThinkingPart, type: string): boolean {
  return part.origin === type && (part.signature !== undefined || part.redactedData !== undefined);
}

/**
 * Claude refuses a request with thinking on whose last assistant turn calls
 * tools without starting with that turn's signed thought. A client that
 * cannot carry the signature back (Chat Completions), or a thought from
 * another provider, would hit that on every tool loop; the turn is then
 * sent with thinking off.
 */
export function thinkingBreaksContinuity(request: ChatRequest, type: string): boolean {
  let last: ChatRequest['messages'][number] | undefined;
  for (let i = request.messages.length - 1; i >= 0 && !last; i--) if (request.messages[i].role === 'assistant') last = request.messages[i];
  if (!last?.content.some((part) => part.type === 'tool_call')) return false;
  const first = last.content[0];
  return !(first.type === 'thinking' && stateGoesBack(first, type));
}
