/**
 * ChatRequest → OpenAI chat-completions request body: the adapter's
 * `prepare`, one pass that builds the body and decides each field (see
 * upstreams/plan.ts) where it handles it.
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
 *   plan), as are provider-run tools; dialect features are refused (the
 *   internal answer has no place for logprobs or several candidates).
 * - `prompt_cache_key` and `prompt_cache_retention`: see ../openai-prompt-cache.ts.
 * - Fields the channel declares its server does not take (`unsupportedFields`,
 *   which an openai-chat `preset` fills) are left out, or refused where that
 *   changes the answer (see capabilities.ts).
 */
import type { ChatRequest, Dialect, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import { openAiPromptCacheFields, sentBody } from '../../openai-prompt-cache.js';
import {
  bucketedEffort,
  clientField,
  decideAdaptiveThinking,
  decideFeatures,
  decideHints,
  decidePromptCache,
  decideResponseFormat,
  decideSampling,
  decideSystemTurns,
  decideTools,
  keepsField,
  preparing,
  sendsSampling,
  type Prepared,
  type PrepareOptions,
} from '../../plan.js';
import { openAiChatCapabilitiesFor } from './capabilities.js';
import { toChatMessages } from './convert-messages.js';
import type { Serving } from '../../endpoint.js';
import { chatCompletionsSettings, type ChatCompletionsSettings } from './settings.js';

type Json = Record<string, unknown>;

export type ChatCompletionsPrepared = Prepared<Json>;

/** What `toChatCompletionRequest` prepares for: the openai-chat type. */
const openAiChatServing: Serving = { type: 'openai-chat', named: 'openai-chat upstream', reasoningOrigin: 'openai-chat' };

export function prepareChatCompletions(request: ChatRequest, options: PrepareOptions<ChatCompletionsSettings>, serving: Serving): ChatCompletionsPrepared {
  return preparing<ChatCompletionsPrepared>(serving, options.strict, (plan) => ({ body: buildChatCompletionRequest(request, options, serving.reasoningOrigin, plan) }));
}

/** The body as sent for a session, for callers that need no plan (the decisions are dropped); `settings` as a channel stores them. */
export function toChatCompletionRequest(request: ChatRequest, upstreamModel: string, settings: Record<string, unknown> = {}, sessionKey?: string, serving = openAiChatServing): Json {
  return sentBody(prepareChatCompletions(request, { strict: false, settings: chatCompletionsSettings.read(settings), upstreamModel }, serving).body, sessionKey);
}

function buildChatCompletionRequest(request: ChatRequest, { settings, upstreamModel, dialect }: PrepareOptions<ChatCompletionsSettings>, origin: string, plan: PlanBuilder): Json {
  const caps = openAiChatCapabilitiesFor(settings);
  // This upstream honours no dialect feature: each is refused.
  decideFeatures(request, caps, plan);
  decideSystemTurns(request, caps, plan);
  const body: Json = { model: upstreamModel, messages: toChatMessages(request, settings, origin, plan) };
  if (request.maxTokens !== undefined) body[settings.maxTokensField] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  // top_k has no field here: a hint, not sent.
  decideSampling(request, caps, plan);
  // A stop sequence left out would let the answer run on: refused where the server takes none.
  if (request.stopSequences?.length && keepsField('stop', true, caps, plan)) body.stop = request.stopSequences;
  if (request.seed !== undefined && sendsSampling('seed', caps)) body.seed = request.seed;
  if (request.presencePenalty !== undefined && sendsSampling('presencePenalty', caps)) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined && sendsSampling('frequencyPenalty', caps)) body.frequency_penalty = request.frequencyPenalty;
  const tools = decideTools(request, caps, plan);
  if (tools.length > 0) {
    body.tools = tools.map(toTool);
    const choice = request.toolChoice;
    // `auto` is every server's default: leaving it out changes nothing; any other choice does.
    if (choice && keepsField('tool_choice', choice.type !== 'auto', caps, plan)) body.tool_choice = toToolChoice(choice);
    const serial = (choice && 'disableParallel' in choice && choice.disableParallel) || request.parallelToolCalls === false;
    if (serial && keepsField('parallel_tool_calls', false, caps, plan)) body.parallel_tool_calls = false;
  }
  if (request.responseFormat && (request.responseFormat.type !== 'json_schema' || keepsField('response_format.json_schema', true, caps, plan))) {
    const format = toResponseFormat(request.responseFormat);
    if (format) {
      body.response_format = format;
      decideResponseFormat(request, dialect, 'response_format', plan);
    }
  }
  decideAdaptiveThinking(request, caps, plan);
  const effort = reasoningEffort(request.thinking, dialect, plan);
  if (effort && keepsField('reasoning_effort', false, caps, plan)) body.reasoning_effort = effort;
  // Chat Completions has no switch for showing thoughts: a server that returns them (reasoning_content) does.
  const omitted = request.thinking?.enabled && request.thinking.includeThoughts === false ? clientField('thoughtsOmitted', dialect) : undefined;
  if (omitted) plan.hint(omitted, 'the upstream has no switch for it: thoughts come back as the server sends them', PlanRank.rules);
  if (request.user && keepsField('user', false, caps, plan)) body.user = request.user;
  decideHints(request, caps, plan);
  decidePromptCache(request, caps.promptCache, plan);
  Object.assign(body, openAiPromptCacheFields(request, settings, false));
  if (request.stream) {
    body.stream = true;
    // A server that refuses the option (`streamUsage: false`) is billed by the usage it sends unasked, else by estimate.
    if (settings.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

/** A function tool (decideTools keeps no builtin tool here: this upstream runs none). */
function toTool(tool: ToolDefinition): Json {
  if (tool.type === 'builtin') return tool.raw;
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

/** The client's effort word, else its budget bucketed like the anthropic adapter's effort budgets (a mapped decision). */
function reasoningEffort(thinking: ThinkingConfig | undefined, dialect: Dialect | undefined, plan: PlanBuilder): string | undefined {
  if (!thinking?.enabled) return undefined;
  if (thinking.effort) return thinking.effort;
  if (thinking.budgetTokens === undefined) return undefined;
  return bucketedEffort(thinking.budgetTokens, dialect, plan);
}
