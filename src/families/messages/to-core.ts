/**
 * Converts a validated Messages request into the internal ChatRequest.
 */
import type { ChatMessage, ChatRequest, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { blocksToParts } from './to-core-content.js';
import { isCustomTool, type MessagesRequest, type ThinkingParam, type Tool, type ToolChoiceParam } from './schema.js';

export function messagesToCore(req: MessagesRequest): ChatRequest {
  const out: ChatRequest = {
    model: req.model,
    messages: convertMessages(req.messages),
    maxTokens: req.max_tokens,
    stream: req.stream ?? false,
  };
  const system = systemText(req.system);
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
  if (req.thinking) out.thinking = convertThinking(req.thinking);
  if (req.metadata?.user_id) out.user = req.metadata.user_id;
  return out;
}

/** Consecutive messages of the same role form one turn. */
function convertMessages(messages: MessagesRequest['messages']): ChatMessage[] {
  const out: ChatMessage[] = [];
  let previous: ChatMessage | undefined;
  for (const message of messages) {
    if (previous && previous.role === message.role) {
      blocksToParts(message.content, previous.content);
      continue;
    }
    previous = { role: message.role, content: [] };
    blocksToParts(message.content, previous.content);
    out.push(previous);
  }
  return out;
}

/** System text blocks are one prompt, split by the client (often to place cache marks). */
function systemText(system: MessagesRequest['system']): string | undefined {
  if (system == null) return undefined;
  if (typeof system === 'string') return system || undefined;
  return system.map((block) => block.text).join('\n\n') || undefined;
}

function convertTool(tool: Tool): ToolDefinition {
  if (isCustomTool(tool)) {
    return {
      type: 'function',
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.input_schema,
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    };
  }
  return { type: 'builtin', dialect: 'messages', kind: tool.type, raw: tool };
}

function convertToolChoice(choice: ToolChoiceParam): ToolChoice {
  if (choice.type === 'none') return { type: 'none' };
  const parallel = choice.disable_parallel_tool_use === undefined ? {} : { disableParallel: choice.disable_parallel_tool_use };
  if (choice.type === 'auto') return { type: 'auto', ...parallel };
  if (choice.type === 'any') return { type: 'required', ...parallel };
  return { type: 'tool', name: choice.name, ...parallel };
}

function convertThinking(thinking: ThinkingParam): ThinkingConfig {
  switch (thinking.type) {
    case 'enabled':
      return { enabled: true, budgetTokens: thinking.budget_tokens, includeThoughts: true };
    case 'adaptive':
      return { enabled: true, includeThoughts: true };
    case 'disabled':
      return { enabled: false };
  }
}
