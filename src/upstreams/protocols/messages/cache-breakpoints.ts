/**
 * Prompt-cache breakpoints (`cache_control`) on a translated Messages body.
 * Anthropic caches a prompt only up to a breakpoint, so a session that
 * arrives without any (Responses, Chat Completions and content-generation
 * clients have no such word) would cache nothing.
 *
 * - The client's own marks are used where it placed some (a Chat Completions
 *   client's `cache_control`, the tools' and system prompt's marks; a mark on
 *   a system turn marks the system prompt it is folded into).
 * - Otherwise the gateway places them as Claude Code does: the end of the
 *   tools, the end of the system prompt, and the moving end of the
 *   conversation: the last cacheable block of the last message (this turn's
 *   write) and of the message before it (where the previous turn wrote, so
 *   that write is read). Channel setting `cacheBreakpoints: false` turns this off.
 * - One hour when the client asked for it (a one-hour mark, or
 *   `prompt_cache_retention: "24h"`), else five minutes.
 * - At most four breakpoints (Anthropic's limit): the last ones are kept, the
 *   ones furthest into the prompt, which cover the most. Thinking blocks and
 *   empty text never carry one (Anthropic refuses them; empty text is never sent).
 * - Anthropic refuses a one-hour breakpoint after a five-minute one: a
 *   five-minute mark before a one-hour one becomes one hour (its prefix is
 *   part of the longer-lived one anyway).
 */
import type { CacheMark } from '../../../core/cache-intent.js';
import type { ChatRequest } from '../../../core/chat.js';
import { asksLongCache, hasCacheMarks, longerMark } from '../../../core/prompt-cache.js';
import { cacheControlOf } from '../../../dialects/messages/cache-control.js';
import type { MessagesSettings } from './settings.js';

type Block = Record<string, unknown>;

export const MAX_BREAKPOINTS = 4;

/** Adds the breakpoints to `body` (built by convert-request.ts, whose message blocks already carry the client's part marks); the gateway's own where the channel's `cacheBreakpoints` allows them. */
export function placeCacheBreakpoints(body: Block, request: ChatRequest, settings: Pick<MessagesSettings, 'cacheBreakpoints'>): void {
  if (hasCacheMarks(request)) {
    if (request.cache?.tools) markLastTool(body, request.cache.tools);
    const system = systemTurnMarks(request).reduce(longerMark, request.cache?.system);
    if (system) markSystem(body, system);
  } else if (settings.cacheBreakpoints) {
    const mark: CacheMark = { ttl: asksLongCache(request) ? '1h' : '5m' };
    markLastTool(body, mark);
    markSystem(body, mark);
    const messages = (body.messages ?? []) as Array<{ content: Block[] }>;
    for (const message of messages.slice(-2)) markLastCacheable(message.content, mark);
  }
  keepLast(body, MAX_BREAKPOINTS);
}

/** System turns are folded into the system prompt (convert-request.ts): their marks mark it. */
function systemTurnMarks(request: ChatRequest): CacheMark[] {
  const marks: CacheMark[] = [];
  for (const message of request.messages) {
    if (message.role !== 'system') continue;
    for (const part of message.content) if (part.type !== 'thinking' && part.cache) marks.push(part.cache);
  }
  return marks;
}

function markLastTool(body: Block, mark: CacheMark): void {
  const tools = body.tools as Block[] | undefined;
  if (!tools?.length) return;
  // A client's typed tool is sent as it wrote it: mark a copy, never the client's object.
  tools[tools.length - 1] = { ...tools[tools.length - 1], cache_control: cacheControlOf(mark) };
}

function markSystem(body: Block, mark: CacheMark): void {
  if (typeof body.system !== 'string' || body.system === '') return;
  body.system = [{ type: 'text', text: body.system, cache_control: cacheControlOf(mark) }];
}

const uncacheable = new Set(['thinking', 'redacted_thinking']);

function markLastCacheable(blocks: Block[], mark: CacheMark): void {
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (uncacheable.has(blocks[i].type as string)) continue;
    blocks[i].cache_control = cacheControlOf(mark);
    return;
  }
}

/** Removes the earliest breakpoints beyond `limit`, in prompt order: tools, system, messages. */
function keepLast(body: Block, limit: number): void {
  const marked: Block[] = [];
  const collect = (blocks: unknown) => {
    if (Array.isArray(blocks)) for (const block of blocks as Block[]) if (block?.cache_control !== undefined) marked.push(block);
  };
  collect(body.tools);
  collect(body.system);
  for (const message of (body.messages ?? []) as Array<{ content: Block[] }>) collect(message.content);
  for (const block of marked.slice(0, Math.max(0, marked.length - limit))) delete block.cache_control;
  let oneHourFollows = false;
  for (const block of marked.slice(-limit).reverse()) {
    if ((block.cache_control as { ttl?: string }).ttl === '1h') oneHourFollows = true;
    else if (oneHourFollows) block.cache_control = cacheControlOf({ ttl: '1h' });
  }
}
