/**
 * A validated Chat Completions request → the internal ChatRequest, for
 * upstreams that do not speak the dialect.
 *
 * Choices worth knowing:
 * - `max_completion_tokens` wins over the older `max_tokens`.
 * - `reasoning_effort` is the thinking effort (`none` turns thinking off;
 *   words beyond the internal four go to the nearest); thoughts are asked
 *   for, so they can surface as `reasoning_content`.
 * - The legacy `functions`/`function_call` pair is read as tools and a tool choice.
 * - `web_search_options` asks for web search: a provider-run tool each
 *   upstream runs with its own search, or leaves out (the plan says which).
 * - Fields that change the answer and only a native upstream honours are
 *   features, refused by name elsewhere: `logprobs`/`top_logprobs`, `n` > 1,
 *   `logit_bias`, audio output (`modalities`, `audio`), custom tools, stored
 *   files. Every other field the gateway does not read is a hint.
 * - The prompt cache: `cache_control` marks (see to-core-messages.ts),
 *   `prompt_cache_key` and `prompt_cache_retention` go to `ChatRequest.cache`.
 */
import type { PromptCache } from '../../core/cache-intent.js';
import type { BuiltinTool, ChatRequest, FunctionTool, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import type { FunctionToolParam, ResponseFormatParam, ToolChoiceParam } from '../../dialects/chat-completions/schema-request.js';
import { messagesToCore } from './to-core-messages.js';
import type { ValidatedChatRequest } from './validate.js';

const handledFields = new Set([
  'model',
  'messages',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'reasoning_effort',
  'stream',
  'stream_options',
  'user',
  'functions',
  'function_call',
  'web_search_options',
  'prompt_cache_key',
  'prompt_cache_retention',
]);

export function chatCompletionsToCore(req: ValidatedChatRequest): ChatRequest {
  const conversation = messagesToCore(req.messages);
  const out: ChatRequest = { model: req.model, messages: conversation.messages, stream: req.stream === true };
  if (conversation.system.length > 0) out.system = conversation.system.join('\n\n');
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (maxTokens != null) out.maxTokens = maxTokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.topP = req.top_p;
  if (req.stop != null) out.stopSequences = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (req.seed != null) out.seed = req.seed;
  if (req.presence_penalty != null) out.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty != null) out.frequencyPenalty = req.frequency_penalty;
  if (req.user) out.user = req.user;
  const features: Record<string, unknown> = { ...conversation.features };
  const tools = toolsToCore(req, features);
  if (tools.length > 0) out.tools = tools;
  const choice = toolChoiceToCore(req.tool_choice ?? legacyChoice(req.function_call), features);
  if (choice) out.toolChoice = choice;
  if (req.parallel_tool_calls === false) out.parallelToolCalls = false;
  const format = req.response_format ? formatToCore(req.response_format) : undefined;
  if (format) out.responseFormat = format;
  const thinking = req.reasoning_effort != null ? thinkingToCore(req.reasoning_effort) : undefined;
  if (thinking) out.thinking = thinking;
  const hints = classifyFields(req, features);
  const cache = promptCacheOf(req, conversation.systemMark);
  if (cache) out.cache = cache;
  if (Object.keys(features).length > 0) out.features = { 'chat-completions': features };
  if (Object.keys(hints).length > 0) out.hints = hints;
  return out;
}

function toolsToCore(req: ValidatedChatRequest, features: Record<string, unknown>): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  for (const tool of req.tools ?? []) {
    if (tool.type === 'function') tools.push(functionToCore((tool as FunctionToolParam).function));
    else features[`tool ${tool.type}`] = true;
  }
  for (const fn of req.functions ?? []) tools.push(functionToCore(fn));
  if (req.web_search_options) tools.push(webSearchTool(req.web_search_options));
  return tools;
}

function functionToCore(fn: FunctionToolParam['function']): FunctionTool {
  const tool: FunctionTool = { type: 'function', name: fn.name, parameters: fn.parameters ?? { type: 'object', properties: {} } };
  if (fn.description) tool.description = fn.description;
  if (fn.strict != null) tool.strict = fn.strict;
  return tool;
}

function webSearchTool(options: Record<string, unknown>): BuiltinTool {
  return { type: 'builtin', dialect: 'chat-completions', kind: 'web_search_options', capability: 'web_search', raw: { type: 'web_search_options', ...options } };
}

function legacyChoice(choice: ValidatedChatRequest['function_call']): ToolChoiceParam | undefined {
  if (choice == null) return undefined;
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function toolChoiceToCore(choice: ToolChoiceParam | undefined, features: Record<string, unknown>): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'function') return { type: 'tool', name: (choice.function as { name: string }).name };
  // `allowed_tools`, `custom`: a choice the internal representation has no word for.
  features[`tool_choice ${choice.type}`] = true;
  return undefined;
}

function formatToCore(format: ResponseFormatParam): ResponseFormat | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const spec = format.json_schema as { name: string; description?: string | null; schema?: Record<string, unknown> | null; strict?: boolean | null };
  const out: ResponseFormat = { type: 'json_schema', name: spec.name, schema: spec.schema ?? { type: 'object' } };
  if (spec.strict != null) out.strict = spec.strict;
  if (spec.description) out.description = spec.description;
  return out;
}

const efforts: Record<string, ThinkingConfig['effort']> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/** An unknown effort word counts as the default, medium. */
function thinkingToCore(effort: string): ThinkingConfig {
  if (effort === 'none') return { enabled: false };
  return { enabled: true, effort: efforts[effort] ?? 'medium', includeThoughts: true };
}

/** Answer-changing fields become features; the rest of what the gateway does not read, hints. */
function classifyFields(req: ValidatedChatRequest, features: Record<string, unknown>): Record<string, unknown> {
  const hints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req)) {
    if (value === null || value === undefined || value === false || handledFields.has(key)) continue;
    if (key === 'logprobs' || key === 'audio') features[key] = value;
    else if (key === 'top_logprobs') {
      if (typeof value === 'number' && value > 0) features[key] = value;
    } else if (key === 'n') {
      if (value !== 1) features[key] = value;
    } else if (key === 'logit_bias') {
      if (Object.keys(value as object).length > 0) features[key] = value;
    } else if (key === 'modalities') {
      if ((value as string[]).includes('audio')) features[key] = value;
    } else hints[key] = value;
  }
  return hints;
}

function promptCacheOf(req: ValidatedChatRequest, systemMark: PromptCache['system']): PromptCache | undefined {
  const cache: PromptCache = {};
  if (systemMark) cache.system = systemMark;
  const fields = req as { prompt_cache_key?: unknown; prompt_cache_retention?: unknown };
  if (typeof fields.prompt_cache_key === 'string' && fields.prompt_cache_key !== '') cache.key = fields.prompt_cache_key;
  if (typeof fields.prompt_cache_retention === 'string') cache.retention = fields.prompt_cache_retention;
  return Object.keys(cache).length > 0 ? cache : undefined;
}
