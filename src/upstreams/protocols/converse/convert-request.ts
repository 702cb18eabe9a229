/**
 * ChatRequest → Converse request body (the translation path; Converse has
 * no client dialect): the adapter's `prepare`, one pass that builds the body
 * and decides each field (see upstreams/plan.ts) where it handles it.
 *
 * Choices worth knowing:
 * - `inferenceConfig.maxTokens` only when the client gave one or the channel
 *   sets `converseMaxTokens` (Converse requires none); with Claude's thinking
 *   on, one is always sent, above the budget.
 * - top_k goes in `additionalModelRequestFields` for the families that take
 *   it (Claude `top_k`, Nova `inferenceConfig.topK`), else it is a hint, as
 *   are seed and the penalties.
 * - Thinking goes where the channel's `converseReasoning` says (by the model
 *   id by default): Claude's budget, Nova 2's `reasoningConfig` or an effort
 *   word; a model that takes none answers without (a hint).
 * - `tool_choice: none` sends no tools (Converse has no such choice); with
 *   tool calls in the conversation Converse needs the tools declared, so it
 *   is refused then. Parallel tool calls cannot be turned off (a hint).
 * - Structured output is Converse's `outputConfig.textFormat` (a JSON schema,
 *   sent as a string); `json_object` without a schema is refused.
 * - Prompt caching: cachePoint blocks (cache-points.ts) for Claude and Nova.
 */
import type { ChatRequest, Dialect, ThinkingConfig, ToolChoice, ToolDefinition } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
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
  preparing,
  type Prepared,
  type PrepareOptions,
  type TranslationCapabilities,
} from '../../plan.js';
import { placeCachePoints } from './cache-points.js';
import { cachesPrompts, converseCapabilitiesFor, converseFamily, reasoningField, topKPlace } from './capabilities.js';
import { converseMessages, systemBlocks, type MessageContext } from './convert-messages.js';
import { thinkingBreaksContinuity } from './reasoning.js';
import type { ConverseSettings } from './settings.js';
import type { ConverseRequest, ToolChoice as ConverseToolChoice, ToolSpec } from './wire.js';

export type ConversePrepared = Prepared<ConverseRequest>;

const MIN_THINKING_BUDGET = 1024;
const STOP_SEQUENCE_PATH = ['/stop_sequence'];
/** Room for the answer above Claude's thinking budget when neither the client nor the channel set a limit above it. */
const ANSWER_ROOM = 4096;
const budgetByEffort: Record<NonNullable<ThinkingConfig['effort']>, number> = { minimal: 1024, low: 4096, medium: 16384, high: 32768 };

/** The rank of this protocol's own decisions, after the shared ones (core/translation-plan.ts). */
const RANK = { thinking: PlanRank.rules, responseFormat: PlanRank.rules + 1, tools: PlanRank.rules + 3, user: PlanRank.rules + 4 };

/** The prepare of an upstream of channel type `type` (the origin its thoughts are sealed with), built once. */
export function converseRequestPreparer(type: string) {
  return (request: ChatRequest, options: PrepareOptions<ConverseSettings>): ConversePrepared =>
    preparing<ConversePrepared>(type, options.strict, (plan) => ({ body: buildConverseRequest(request, options, plan, type) }));
}

function buildConverseRequest(request: ChatRequest, { settings, upstreamModel, dialect }: PrepareOptions<ConverseSettings>, plan: PlanBuilder, type: string): ConverseRequest {
  const family = converseFamily(upstreamModel);
  const caps = converseCapabilitiesFor(upstreamModel, settings);
  const context: MessageContext = { plan, cachePoints: cachesPrompts(family), type, documents: 0 };
  decideSystemTurns(request, caps, plan);
  const system = systemBlocks(request, context);
  const body: ConverseRequest = { messages: converseMessages(request.messages, context) };
  if (system.length > 0) body.system = system;
  const extra: Record<string, unknown> = {};
  const budget = applyThinking(extra, request, reasoningField(upstreamModel, settings.converseReasoning), caps, dialect, plan, type);
  const inference: NonNullable<ConverseRequest['inferenceConfig']> = {};
  const limit = request.maxTokens ?? settings.converseMaxTokens;
  // Claude wants room for the answer above its thinking budget.
  const maxTokens = budget > 0 && (limit === undefined || limit <= budget) ? budget + ANSWER_ROOM : limit;
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stopSequences?.length) {
    inference.stopSequences = request.stopSequences;
    // Claude tells which sequence stopped it only when asked for that field.
    if (family === 'anthropic') body.additionalModelResponseFieldPaths = STOP_SEQUENCE_PATH;
  }
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const topK = topKPlace(family);
  if (request.topK !== undefined && topK === 'top_k') extra.top_k = request.topK;
  else if (request.topK !== undefined && topK === 'inferenceConfig.topK') extra.inferenceConfig = { topK: request.topK };
  decideSampling(request, caps, plan);
  applyTools(body, request, decideTools(request, caps, plan), plan);
  applyResponseFormat(body, request, dialect, plan);
  decideFeatures(request, caps, plan);
  decideHints(request, caps, plan);
  if (request.user !== undefined) plan.hint(clientField('user', dialect) ?? 'user', 'Converse has no end-user field', RANK.user);
  if (Object.keys(extra).length > 0) body.additionalModelRequestFields = extra;
  decidePromptCache(request, caps.promptCache, plan);
  if (context.cachePoints) placeCachePoints(body, request, settings.cacheBreakpoints);
  return body;
}

/** Places the thinking request; returns Claude's budget (0 when none is sent). */
function applyThinking(
  extra: Record<string, unknown>,
  request: ChatRequest,
  field: ReturnType<typeof reasoningField>,
  caps: TranslationCapabilities,
  dialect: Dialect | undefined,
  plan: PlanBuilder,
  type: string,
): number {
  const config = request.thinking;
  if (!config?.enabled) return 0;
  if (field === 'none') {
    plan.hint(thinkingField(config, dialect), 'the model takes no reasoning setting on Converse', RANK.thinking);
    return 0;
  }
  decideAdaptiveThinking(request, caps, plan);
  const asked = clientField('thinkingEffort', dialect) ?? 'reasoning_effort';
  if (field === 'thinking') {
    if (thinkingBreaksContinuity(request, type)) {
      plan.mapped('thinking', 'off for this turn: the last assistant turn called tools without its signed thought, which Claude requires', RANK.thinking);
      return 0;
    }
    let budget = config.budgetTokens ?? budgetByEffort[config.effort ?? 'medium'];
    if (request.maxTokens !== undefined && budget >= request.maxTokens) budget = request.maxTokens - 1;
    budget = Math.max(MIN_THINKING_BUDGET, budget);
    if (config.budgetTokens === undefined && config.effort && !config.adaptive) plan.mapped(asked, `budget_tokens ${budget} by effort ${config.effort}`, RANK.thinking);
    extra.thinking = { type: 'enabled', budget_tokens: budget };
    return budget;
  }
  const effort = config.budgetTokens !== undefined ? bucketedEffort(config.budgetTokens, dialect, plan) : config.effort === 'minimal' ? 'low' : (config.effort ?? 'medium');
  if (field === 'reasoningConfig') extra.reasoningConfig = { type: 'enabled', maxReasoningEffort: effort };
  else extra.reasoning_effort = effort;
  return 0;
}

/** The client's own name for how it asked for thinking. */
function thinkingField(config: ThinkingConfig, dialect: Dialect | undefined): string {
  if (config.adaptive) return 'thinking.adaptive';
  if (config.budgetTokens !== undefined) return clientField('thinkingBudget', dialect) ?? 'thinking.budget_tokens';
  if (config.effort !== undefined) return clientField('thinkingEffort', dialect) ?? 'reasoning_effort';
  // Neither a budget nor an effort: the client asked only to see the thoughts.
  return dialect === 'generate' ? 'thinkingConfig.includeThoughts' : 'thinking';
}

function applyTools(body: ConverseRequest, request: ChatRequest, sent: readonly ToolDefinition[], plan: PlanBuilder): void {
  const functions = sent.filter((tool) => tool.type === 'function');
  if (functions.length === 0) return;
  const choice = request.toolChoice;
  if (choice?.type === 'none') {
    if (request.messages.some((message) => message.content.some((part) => part.type === 'tool_call' || part.type === 'tool_result'))) {
      plan.refused('tool_choice none', 'Converse needs the tools declared when the conversation holds tool calls, and cannot forbid calling them', RANK.tools);
    } else plan.mapped('tool_choice none', 'the tools are not sent', RANK.tools);
    return;
  }
  if (disablesParallel(choice, request.parallelToolCalls)) plan.hint('parallel_tool_calls', 'Converse cannot turn parallel tool calls off', RANK.tools);
  const tools: ToolSpec[] = functions.map((tool) => {
    const spec: ToolSpec['toolSpec'] = { name: tool.name, inputSchema: { json: tool.parameters } };
    if (tool.description) spec.description = tool.description;
    if (tool.strict === true) spec.strict = true;
    return { toolSpec: spec };
  });
  body.toolConfig = { tools };
  const converseChoice = toolChoiceOf(choice);
  if (converseChoice) body.toolConfig.toolChoice = converseChoice;
}

function disablesParallel(choice: ToolChoice | undefined, parallelToolCalls: boolean | undefined): boolean {
  return parallelToolCalls === false || (choice !== undefined && 'disableParallel' in choice && choice.disableParallel === true);
}

function toolChoiceOf(choice: ToolChoice | undefined): ConverseToolChoice | undefined {
  if (choice?.type === 'required') return { any: {} };
  if (choice?.type === 'tool') return { tool: { name: choice.name } };
  return choice?.type === 'auto' ? { auto: {} } : undefined;
}

function applyResponseFormat(body: ConverseRequest, request: ChatRequest, dialect: Dialect | undefined, plan: PlanBuilder): void {
  const format = request.responseFormat;
  if (!format || format.type === 'text') return;
  if (format.type === 'json_object') {
    plan.refused('response_format json_object', 'needs a JSON schema for structured output on Converse', RANK.responseFormat);
    return;
  }
  decideResponseFormat(request, dialect, 'outputConfig.textFormat', plan);
  const jsonSchema: { schema: string; name?: string; description?: string } = { schema: JSON.stringify(format.schema) };
  if (format.name) jsonSchema.name = format.name;
  if (format.description) jsonSchema.description = format.description;
  body.outputConfig = { textFormat: { type: 'json_schema', structure: { jsonSchema } } };
}
