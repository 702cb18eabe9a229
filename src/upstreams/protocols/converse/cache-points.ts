/**
 * Prompt-cache points (`cachePoint` blocks) on a translated Converse body,
 * for the models that cache prompts (Claude, Nova). A cache point caches the
 * prompt up to where it stands.
 *
 * - The client's marks on parts are placed by convert-messages.ts; its marks
 *   on the tools and the system prompt (or a system turn, folded into it)
 *   end those lists here.
 * - Where the client placed none, and the channel's `cacheBreakpoints`
 *   allows, the gateway places them as for Messages: the end of the tools,
 *   of the system prompt, and of the last two messages (this turn's write and
 *   the previous turn's, which is then read).
 * - At most four (Bedrock's limit): the last ones are kept.
 */
import type { ChatRequest } from '../../../core/chat.js';
import { hasCacheMarks } from '../../../core/prompt-cache.js';
import { CACHE_POINT } from './convert-messages.js';
import type { ContentBlock, ConverseRequest, SystemBlock } from './wire.js';

export const MAX_CACHE_POINTS = 4;

type Listed = Array<ContentBlock | SystemBlock | NonNullable<ConverseRequest['toolConfig']>['tools'][number]>;

export function placeCachePoints(body: ConverseRequest, request: ChatRequest, gatewayPoints: boolean): void {
  if (hasCacheMarks(request)) {
    if (request.cache?.tools) endWithPoint(body.toolConfig?.tools);
    if (request.cache?.system || systemTurnMarked(request)) endWithPoint(body.system);
  } else if (gatewayPoints) {
    endWithPoint(body.toolConfig?.tools);
    endWithPoint(body.system);
    for (const message of body.messages.slice(-2)) endWithPoint(message.content);
  }
  keepLast(body, MAX_CACHE_POINTS);
}

function systemTurnMarked(request: ChatRequest): boolean {
  return request.messages.some((message) => message.role === 'system' && message.content.some((part) => part.type !== 'thinking' && part.cache !== undefined));
}

/** A cache point after the list's last block, unless one is there already or the list is empty (or ends in a thought, which caches nothing). */
function endWithPoint(list: Listed | undefined): void {
  const last = list?.[list.length - 1];
  if (!last || 'cachePoint' in last || 'reasoningContent' in last) return;
  list!.push(CACHE_POINT);
}

/** Removes the earliest cache points beyond `limit`, in prompt order: tools, system, messages. */
function keepLast(body: ConverseRequest, limit: number): void {
  const lists: Listed[] = [];
  if (body.toolConfig) lists.push(body.toolConfig.tools);
  if (body.system) lists.push(body.system);
  for (const message of body.messages) lists.push(message.content);
  let total = 0;
  for (const list of lists) for (const block of list) if ('cachePoint' in block) total++;
  for (const list of lists) {
    for (let i = 0; i < list.length && total > limit; i++) {
      if (!('cachePoint' in list[i])) continue;
      list.splice(i--, 1);
      total--;
    }
  }
}
