/**
 * Questions every upstream asks of a request's prompt-caching intent (see
 * `PromptCache` and `CacheMark` in cache-intent.ts), answered in one place.
 */
import type { CacheMark } from './cache-intent.js';
import type { ChatRequest, ContentPart } from './chat.js';

/** The marks the client placed inside the conversation, in prompt order. */
export function partMarks(request: ChatRequest): CacheMark[] {
  const marks: CacheMark[] = [];
  for (const message of request.messages) {
    for (const part of message.content) {
      const mark = markOf(part);
      if (mark) marks.push(mark);
    }
  }
  return marks;
}

function markOf(part: ContentPart): CacheMark | undefined {
  return part.type === 'thinking' ? undefined : part.cache;
}

/** Whether the client placed any breakpoint (tools, system or a content part). */
export function hasCacheMarks(request: ChatRequest): boolean {
  return request.cache?.tools !== undefined || request.cache?.system !== undefined || partMarks(request).length > 0;
}

/**
 * Whether the client asked for the longer cache lifetime: a one-hour mark
 * (Messages `ttl: "1h"`) or `prompt_cache_retention: "24h"`.
 */
export function asksLongCache(request: ChatRequest): boolean {
  if (request.cache?.retention === '24h') return true;
  if (request.cache?.tools?.ttl === '1h' || request.cache?.system?.ttl === '1h') return true;
  return partMarks(request).some((mark) => mark.ttl === '1h');
}

/** The longer of two marks (a one-hour mark wins), for places where several collapse into one. */
export function longerMark(a: CacheMark | undefined, b: CacheMark | undefined): CacheMark | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.ttl === '1h' ? a : b;
}
