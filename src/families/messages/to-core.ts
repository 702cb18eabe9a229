/**
 * Converts a validated Messages request into the internal ChatRequest.
 *
 * - `role: "system"` messages become system turns at their place; those before
 *   any other message join the system prompt.
 * - The `x-anthropic-billing-header` attribution line that opens Claude Code's
 *   system prompt is left out of the prompt (a hint): it is attribution for
 *   Anthropic, and would only pollute another provider's prompt.
 * - Thinking: `enabled` keeps its budget, `adaptive` lets the model choose;
 *   `output_config.effort` becomes the thinking effort (`max` → high), and
 *   `display: "omitted"` means the client does not want the thoughts.
 * - `output_config.format` (a JSON schema) becomes the response format.
 * - Tools: custom tools are function tools (`defer_loading` kept as
 *   `deferLoading`); typed tools are builtin tools, with the shared capability
 *   of web search, web fetch and code execution so other upstreams can run
 *   their own.
 * - `cache_control` marks become cache marks (`ChatRequest.cache`, and on the
 *   parts of the marked blocks).
 * Everything else is written down as hints or features (see to-core-notes.ts).
 */
import type { BuiltinCapability, ChatMessage, ChatRequest, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { blocksToParts } from './to-core-content.js';
import { attributionPrefix, emptyNotes, noteRequestFields, promptCacheOf, type RequestNotes } from './to-core-notes.js';
import { isCustomTool, type MessagesRequest, type OutputConfig, type ThinkingParam, type Tool, type ToolChoiceParam } from '../../dialects/messages/schema.js';

export function messagesToCore(req: MessagesRequest): ChatRequest {
  const notes = emptyNotes();
  const { leading, turns } = convertMessages(req.messages, notes);
  const out: ChatRequest = {
    model: req.model,
    messages: turns,
    maxTokens: req.max_tokens,
    stream: req.stream ?? false,
  };
  const system = [systemText(req.system, notes), ...leading].filter(Boolean).join('\n\n');
  if (system) out.system = system;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.topP = req.top_p;
  if (req.top_k != null) out.topK = req.top_k;
  if (req.stop_sequences?.length) out.stopSequences = req.stop_sequences;
  if (req.tools?.length) out.tools = req.tools.map(convertTool);
  if (req.tool_choice) {
    out.toolChoice = convertToolChoice(req.tool_choice);
    if ('disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use) {
      out.parallelToolCalls = false;
    }
  }
  const thinking = convertThinking(req.thinking, req.output_config, notes);
  if (thinking) out.thinking = thinking;
  const format = req.output_config?.format;
  if (format) out.responseFormat = { type: 'json_schema', schema: format.schema };
  if (req.metadata?.user_id) out.user = req.metadata.user_id;
  noteRequestFields(req, notes);
  const cache = promptCacheOf(req);
  if (cache) out.cache = cache;
  if (Object.keys(notes.hints).length > 0) out.hints = notes.hints;
  if (Object.keys(notes.features).length > 0) out.features = { messages: notes.features };
  return out;
}

/**
 * Consecutive messages of the same role form one turn. System messages before
 * any other are returned apart, to join the system prompt.
 */
function convertMessages(messages: MessagesRequest['messages'], notes: RequestNotes): { leading: string[]; turns: ChatMessage[] } {
  const leading: string[] = [];
  const turns: ChatMessage[] = [];
  let previous: ChatMessage | undefined;
  for (const message of messages) {
    if (previous && previous.role === message.role) {
      blocksToParts(message.content, previous.content, message.role, notes);
      continue;
    }
    const turn: ChatMessage = { role: message.role, content: [] };
    blocksToParts(message.content, turn.content, message.role, notes);
    if (message.role === 'system' && turns.length === 0) {
      leading.push(turn.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n'));
      continue;
    }
    previous = turn;
    turns.push(turn);
  }
  return { leading, turns };
}

/** System text blocks are one prompt, split by the client (often to place cache marks). */
function systemText(system: MessagesRequest['system'], notes: RequestNotes): string | undefined {
  if (system == null) return undefined;
  if (typeof system === 'string') return system || undefined;
  let blocks = system;
  if (blocks[0]?.text.startsWith(attributionPrefix)) {
    notes.hints[attributionPrefix.slice(0, -1)] = blocks[0].text;
    blocks = blocks.slice(1);
  }
  return blocks.map((block) => block.text).join('\n\n') || undefined;
}

/** The shared meaning of a typed tool, by its family name (`web_search_20250305` → web search). */
const capabilityByFamily: Array<[RegExp, BuiltinCapability]> = [
  [/^web_search_/, 'web_search'],
  [/^web_fetch_/, 'web_fetch'],
  [/^code_execution_/, 'code_execution'],
];

function convertTool(tool: Tool): ToolDefinition {
  if (isCustomTool(tool)) {
    return {
      type: 'function',
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.input_schema,
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
      ...(tool.defer_loading ? { deferLoading: true } : {}),
    };
  }
  const capability = capabilityByFamily.find(([family]) => family.test(tool.type))?.[1];
  return { type: 'builtin', dialect: 'messages', kind: tool.type, ...(capability ? { capability } : {}), raw: tool };
}

function convertToolChoice(choice: ToolChoiceParam): ToolChoice {
  if (choice.type === 'none') return { type: 'none' };
  const parallel = choice.disable_parallel_tool_use === undefined ? {} : { disableParallel: choice.disable_parallel_tool_use };
  if (choice.type === 'auto') return { type: 'auto', ...parallel };
  if (choice.type === 'any') return { type: 'required', ...parallel };
  return { type: 'tool', name: choice.name, ...parallel };
}

const effortByWord: Record<string, NonNullable<ThinkingConfig['effort']>> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'high',
  max: 'high',
};

function convertThinking(thinking: ThinkingParam | null | undefined, output: OutputConfig | null | undefined, notes: RequestNotes): ThinkingConfig | undefined {
  const word = output?.effort ?? undefined;
  const effort = word === undefined ? undefined : effortByWord[word];
  const enabled = thinking != null && thinking.type !== 'disabled';
  // Effort without thinking (or a word the gateway does not know) only tunes the answer's length.
  if (word !== undefined && (!enabled || effort === undefined)) notes.hints['output_config.effort'] = word;
  if (!thinking) return undefined;
  if (thinking.type === 'disabled') return { enabled: false };
  const shared = { includeThoughts: thinking.display !== 'omitted', ...(effort ? { effort } : {}) };
  if (thinking.type === 'enabled') return { enabled: true, budgetTokens: (thinking as { budget_tokens: number }).budget_tokens, ...shared };
  // A newer type (`between_tools`…) still asks for thinking whose amount the model decides.
  if (thinking.type !== 'adaptive') notes.hints['thinking.type'] = thinking.type;
  return { enabled: true, adaptive: true, ...shared };
}
