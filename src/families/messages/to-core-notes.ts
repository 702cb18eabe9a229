/**
 * What a Messages request carries beyond the internal representation, written
 * down for the translation plan (see core/translation-plan.ts):
 *
 * - the prompt cache: `cache_control` marks on system blocks and tools (those
 *   on content blocks are read with the blocks, to-core-content.ts);
 * - hints (cannot change the answer; ignored where the upstream lacks them,
 *   named in the `x-switchyard-translation` header): `context_management`, `metadata` keys besides `user_id`, the
 *   `x-anthropic-billing-header` attribution line of the system prompt,
 *   `output_config` keys other than effort and format, tool keys that only tune
 *   delivery (`eager_input_streaming`, `input_examples`…), and any top-level key
 *   the gateway does not interpret (`service_tier`, `container`,
 *   `inference_geo`…; strict translation refuses them);
 * - features (change the answer; only an upstream that honours them may serve):
 *   `mcp_servers` (the provider connects to the client's MCP servers).
 */
import type { PromptCache } from '../../core/cache-intent.js';
import { longerMark } from '../../core/prompt-cache.js';
import { cacheMarkOf } from '../../dialects/messages/cache-control.js';
import type { MessagesRequest } from '../../dialects/messages/schema.js';

export interface RequestNotes {
  hints: Record<string, unknown>;
  features: Record<string, unknown>;
}

export function emptyNotes(): RequestNotes {
  return { hints: {}, features: {} };
}

/**
 * The breakpoints on the system prompt and the tools. Several marks collapse
 * into one at the end of each (the internal system prompt is one text), with
 * the longer lifetime any of them asked for.
 */
export function promptCacheOf(req: MessagesRequest): PromptCache | undefined {
  const cache: PromptCache = {};
  if (Array.isArray(req.system)) for (const block of req.system) cache.system = longerMark(cache.system, cacheMarkOf(block));
  for (const tool of req.tools ?? []) cache.tools = longerMark(cache.tools, cacheMarkOf(tool));
  if (!cache.system) delete cache.system;
  if (!cache.tools) delete cache.tools;
  return Object.keys(cache).length > 0 ? cache : undefined;
}

/** Top-level keys to-core converts itself; every other key is a hint. */
const interpretedKeys = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'thinking',
  'tool_choice',
  'tools',
  'output_config',
  'mcp_servers',
]);

/** Custom tool keys to-core converts or that are decided elsewhere. */
const interpretedToolKeys = new Set(['type', 'name', 'description', 'input_schema', 'strict', 'defer_loading', 'cache_control']);

/** Claude Code's attribution line, the first block of its system prompt. */
export const attributionPrefix = 'x-anthropic-billing-header:';

export function noteRequestFields(req: MessagesRequest, notes: RequestNotes): void {
  for (const [key, value] of Object.entries(req)) {
    if (!interpretedKeys.has(key) && value !== undefined && value !== null) notes.hints[key] = value;
  }
  if (req.mcp_servers?.length) notes.features.mcp_servers = req.mcp_servers;
  const { user_id: _userId, ...otherMetadata } = req.metadata ?? {};
  if (Object.keys(otherMetadata).length > 0) notes.hints.metadata = otherMetadata;
  for (const [key, value] of Object.entries(req.output_config ?? {})) {
    if (key !== 'effort' && key !== 'format' && value != null) notes.hints[`output_config.${key}`] = value;
  }
  for (const tool of req.tools ?? []) {
    if (tool.type !== undefined && tool.type !== 'custom') continue;
    for (const key of Object.keys(tool)) if (!interpretedToolKeys.has(key)) notes.hints[key] = true;
  }
}
