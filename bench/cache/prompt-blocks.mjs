/**
 * The canonical rendering of a request's prompt, per upstream dialect, that
 * the fake caches prefixes of. Each piece is the JSON of one unit of the
 * prompt, in the order the provider documents its cache prefix:
 *
 * - Anthropic: tools, then system, then messages; one block per tool, system
 *   block and message content block (a string is one block), each keeping its
 *   `cache_control` as the block's TTL (`5m` unless `ttl: "1h"`).
 * - OpenAI Responses and chat: `instructions` and the leading system and
 *   developer messages, then tools, then the rest of the conversation (the
 *   instructions first, as OpenAI renders them).
 * - Gemini: `systemInstruction`, tools, then contents.
 *
 * `cache_control` marks are left out of the rendered text (they mark a place,
 * they are not prompt), so moving a breakpoint does not change the prefix.
 */
const withoutCacheControl = (value) => JSON.stringify(value, (key, inner) => (key === 'cache_control' ? undefined : inner));

function ttlOf(block) {
  const mark = block && typeof block === 'object' ? block.cache_control : undefined;
  if (!mark) return undefined;
  return mark.ttl === '1h' ? '1h' : '5m';
}

/** Anthropic Messages: [{ text, ttl? }]. */
export function anthropicBlocks(body) {
  const blocks = [];
  for (const tool of body.tools ?? []) blocks.push({ text: `tool:${withoutCacheControl(tool)}`, ttl: ttlOf(tool) });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) blocks.push({ text: `system:${withoutCacheControl(block)}`, ttl: ttlOf(block) });
  for (const message of body.messages ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    content.forEach((block, index) => {
      blocks.push({ text: `${index === 0 ? `${message.role}:` : ''}${withoutCacheControl(block)}`, ttl: ttlOf(block) });
    });
  }
  return blocks;
}

const joined = (parts) => parts.map((part) => withoutCacheControl(part)).join('\n');

const isInstruction = (item) => item?.role === 'system' || item?.role === 'developer';

/** Leading system/developer messages, then tools, then the rest. */
function instructionsFirst(head, tools, messages) {
  let split = 0;
  while (split < messages.length && isInstruction(messages[split])) split += 1;
  return joined([...head, ...messages.slice(0, split), ...tools, ...messages.slice(split)]);
}

/** OpenAI Responses: one text. */
export function responsesPrompt(body) {
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  return instructionsFirst([body.instructions ?? ''], body.tools ?? [], input);
}

/** OpenAI chat: one text. */
export function chatPrompt(body) {
  return instructionsFirst([], body.tools ?? [], body.messages ?? []);
}

/** Gemini generateContent: one text. */
export function geminiPrompt(body) {
  return joined([body.systemInstruction ?? body.system_instruction ?? '', ...(body.tools ?? []), ...(body.contents ?? [])]);
}
