/**
 * ChatRequest → OpenAI chat-completions request body.
 *
 * Choices worth knowing:
 * - Messages: see convert-messages.ts (system turns in place, tool results as
 *   tool messages with their images in a user message after them).
 * - Thinking: an effort word (adaptive thinking's included) is
 *   `reasoning_effort`; a budget is bucketed into one; adaptive thinking with
 *   no effort sends none, leaving the model its default effort.
 * - `max_completion_tokens` is sent; channel setting `maxTokensField: 'max_tokens'`
 *   serves older servers. `stream_options.include_usage` is sent with streams
 *   unless the channel sets `streamUsage: false`.
 * - top_k is not part of chat completions: ignored (a hint in the translation
 *   plan, see capabilities.ts), as are provider-run tools.
 * - `prompt_cache_key` and `prompt_cache_retention`: see ../openai-prompt-cache.ts.
 */
import { featureEntries, type ChatRequest, type ResponseFormat, type ThinkingConfig, type ToolChoice, type ToolDefinition } from '../../core/chat.js';
import { unsupportedFeature } from '../../core/errors.js';
import { openAiPromptCacheFields } from '../openai-prompt-cache.js';
import { toolsToSend } from '../plan.js';
import { openAiChatCapabilities } from './capabilities.js';
import { toChatMessages } from './convert-messages.js';
import type { OpenAiChatSettings } from './settings.js';

type Json = Record<string, unknown>;

export function toChatCompletionRequest(request: ChatRequest, upstreamModel: string, settings: OpenAiChatSettings = {}, sessionKey?: string): Json {
  // The plan refuses every feature before routing (this upstream honours none); a safety net.
  const [feature] = featureEntries(request.features);
  if (feature) throw unsupportedFeature(feature[1], 'the openai-chat upstream honours no optional features');

  const body: Json = { model: upstreamModel, messages: toChatMessages(request, settings) };
  if (request.maxTokens !== undefined) body[settings.maxTokensField === 'max_tokens' ? 'max_tokens' : 'max_completion_tokens'] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences?.length) body.stop = request.stopSequences;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  const tools = toolsToSend(request.tools, openAiChatCapabilities);
  if (tools.length > 0) {
    body.tools = tools.map(toTool);
    if (request.toolChoice) body.tool_choice = toToolChoice(request.toolChoice);
    const choice = request.toolChoice;
    if ((choice && 'disableParallel' in choice && choice.disableParallel) || request.parallelToolCalls === false) body.parallel_tool_calls = false;
  }
  if (request.responseFormat) {
    const format = toResponseFormat(request.responseFormat);
    if (format) body.response_format = format;
  }
  const effort = reasoningEffort(request.thinking);
  if (effort) body.reasoning_effort = effort;
  if (request.user) body.user = request.user;
  Object.assign(body, openAiPromptCacheFields(request, sessionKey, settings, false));
  if (request.stream) {
    body.stream = true;
    if (settings.streamUsage !== false) body.stream_options = { include_usage: true };
  }
  return body;
}

function toTool(tool: ToolDefinition): Json {
  // toolsToSend keeps no builtin tool here (this upstream runs none); a safety net.
  if (tool.type === 'builtin') throw unsupportedFeature(`tool ${tool.kind}`, 'chat-completions upstreams run no builtin tools');
  const fn: Json = { name: tool.name, parameters: tool.parameters };
  if (tool.description) fn.description = tool.description;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function toToolChoice(choice: ToolChoice): string | Json {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

function toResponseFormat(format: ResponseFormat): Json | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const schema: Json = { name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) schema.strict = format.strict;
  if (format.description) schema.description = format.description;
  return { type: 'json_schema', json_schema: schema };
}

/** The client's effort word, else its budget bucketed like the anthropic adapter's effort budgets. */
function reasoningEffort(thinking: ThinkingConfig | undefined): string | undefined {
  if (!thinking?.enabled) return undefined;
  if (thinking.effort) return thinking.effort;
  if (thinking.budgetTokens === undefined) return undefined;
  if (thinking.budgetTokens <= 4096) return 'low';
  if (thinking.budgetTokens <= 16384) return 'medium';
  return 'high';
}
