/**
 * ChatRequest → Gemini GenerateContent request body (the translation path):
 * the adapter's `prepare`, one pass that builds the body and decides each
 * field (see upstreams/plan.ts) where it handles it.
 *
 * Choices worth knowing:
 * - Schemas go as JSON Schema (`parametersJsonSchema`, `responseJsonSchema`),
 *   which Gemini takes as they are; strict tools ask for VALIDATED calling.
 * - System turns inside the conversation have no place in Gemini `contents`:
 *   their text joins `systemInstruction`, after the leading system prompt, in
 *   conversation order (a `mapped` decision in the plan).
 * - Thinking: a budget goes as `thinkingBudget`, an effort word as
 *   `thinkingLevel` (upper case, as the service spells it); adaptive thinking
 *   without an effort is the dynamic budget `-1`. Thoughts are requested back
 *   unless the client said not to show them; thinking off is a zero budget.
 * - Provider-run tools of other dialects with a shared capability become
 *   Gemini's own: web search → `googleSearch`, web fetch → `urlContext`, code
 *   execution → `codeExecution`; the others were left out by the plan.
 * - Hints of other dialects (cache keys, metadata…) have no Gemini field and
 *   are not sent.
 * - `parallelToolCalls: false` has no Gemini field (the model decides), nor
 *   does `user`, an end-user id with no effect on the answer (a hint).
 * - Structured output goes as `responseMimeType` (+ `responseJsonSchema`):
 *   mapped from another dialect's field.
 * - Features (`geminiFeatures` in capabilities.ts, the one list): the ones a
 *   content-generation client can set that only shape the request (cached
 *   content, safety settings, media resolution, service tier…) are
 *   forwarded; the ones whose answer the internal representation cannot
 *   carry back (several candidates, logprobs, audio or image output) are
 *   refused by name.
 */
import type { BuiltinCapability, ChatRequest, Dialect, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import { toGeminiContents } from './convert-contents.js';
import type { Serving } from '../../endpoint.js';
import {
  builtinToolTreatment,
  clientField,
  decideAdaptiveThinking,
  decideFeatures,
  decideHints,
  decidePromptCache,
  decideResponseFormat,
  decideSystemTurns,
  decideTools,
  preparing,
  type Prepared,
  type PrepareOptions,
} from '../../plan.js';
import { geminiCapabilities, geminiFeature } from './capabilities.js';
import { generateSettings, type GenerateSettings } from './settings.js';

type Json = Record<string, unknown>;

export type GeneratePrepared = Prepared<Json>;

/**
 * The origin of the content-generation protocol's reasoning state: Gemini's
 * thought signatures, which the Gemini API and Vertex AI both take for the
 * same models, so every provider of the protocol seals and takes back this
 * one (the name the gemini type sealed with, which clients' histories hold).
 */
export const GENERATE_REASONING_ORIGIN = 'gemini';

/** What `toGeminiRequest` prepares for: the gemini type. */
const geminiServing: Serving = { type: 'gemini', named: 'gemini upstream', reasoningOrigin: GENERATE_REASONING_ORIGIN };

export function prepareGenerate(request: ChatRequest, options: PrepareOptions<GenerateSettings>, serving: Serving): GeneratePrepared {
  return preparing<GeneratePrepared>(serving, options.strict, (plan) => ({ body: buildGeminiRequest(request, options.upstreamModel, options.dialect, serving.reasoningOrigin, plan) }));
}

/** The body alone, for callers that need no plan (the decisions are dropped). */
export function toGeminiRequest(request: ChatRequest, upstreamModel: string, serving = geminiServing): Json {
  return prepareGenerate(request, { strict: false, settings: generateSettings.read({}), upstreamModel }, serving).body;
}

function buildGeminiRequest(request: ChatRequest, upstreamModel: string, dialect: Dialect | undefined, origin: string, plan: PlanBuilder): Json {
  const caps = geminiCapabilities;
  const conversation = request.messages.filter((message) => message.role !== 'system');
  const body: Json = { contents: toGeminiContents(conversation, upstreamModel, origin) };
  decideSystemTurns(request, caps, plan);
  const systemInstruction = systemParts(request);
  if (systemInstruction.length > 0) body.systemInstruction = { parts: systemInstruction };
  decideAdaptiveThinking(request, caps, plan);
  const generationConfig = generationConfigOf(request, dialect, plan);
  const tools = decideTools(request, caps, plan);
  if (tools.length > 0) {
    body.tools = toTools(tools);
    const toolConfig = toToolConfig(request.toolChoice, tools);
    if (toolConfig) body.toolConfig = toolConfig;
  }
  for (const [name, value] of decideFeatures(request, caps, plan, refusedFeature)) {
    const feature = geminiFeature(name);
    if (feature && 'where' in feature) (feature.where === 'body' ? body : generationConfig)[name] = value;
  }
  // Hints of other dialects (cache keys, metadata…) have no Gemini field: not sent.
  decideHints(request, caps, plan);
  decidePromptCache(request, caps.promptCache, plan);
  // Nor does the end user's id: left out, a hint.
  if (request.user) plan.hint(clientField('user', dialect) ?? 'user', 'the upstream has no end-user id', PlanRank.rules);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function refusedFeature(name: string): string | undefined {
  const feature = geminiFeature(name);
  return feature && 'refused' in feature ? `cannot honour it by translation: ${feature.refused}` : undefined;
}

/** The leading system prompt, then each system turn's text in conversation order. */
function systemParts(request: ChatRequest): Json[] {
  const parts: Json[] = [];
  if (request.system) parts.push({ text: request.system });
  for (const message of request.messages) {
    if (message.role !== 'system') continue;
    for (const part of message.content) if (part.type === 'text' && part.text !== '') parts.push({ text: part.text });
  }
  return parts;
}

function generationConfigOf(request: ChatRequest, dialect: Dialect | undefined, plan: PlanBuilder): Json {
  const config: Json = {};
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.stopSequences?.length) config.stopSequences = request.stopSequences;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  if (request.responseFormat) applyResponseFormat(config, request.responseFormat);
  decideResponseFormat(request, dialect, 'responseMimeType', plan);
  const thinking = thinkingConfig(request.thinking);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

function applyResponseFormat(config: Json, format: ResponseFormat): void {
  if (format.type === 'text') return;
  config.responseMimeType = 'application/json';
  if (format.type === 'json_schema') config.responseJsonSchema = format.schema;
}

function thinkingConfig(thinking: ThinkingConfig | undefined): Json | undefined {
  if (!thinking) return undefined;
  if (!thinking.enabled) return { thinkingBudget: 0 };
  const config: Json = { includeThoughts: thinking.includeThoughts !== false };
  if (thinking.budgetTokens !== undefined) config.thinkingBudget = thinking.budgetTokens;
  else if (thinking.effort !== undefined) config.thinkingLevel = thinking.effort.toUpperCase();
  else if (thinking.adaptive) config.thinkingBudget = -1;
  return config;
}

/** Gemini's own tool for each shared capability. */
const ownTool: Record<BuiltinCapability, Json> = {
  web_search: { googleSearch: {} },
  web_fetch: { urlContext: {} },
  code_execution: { codeExecution: {} },
};

function toTools(tools: ToolDefinition[]): Json[] {
  const declarations: Json[] = [];
  const builtins: Json[] = [];
  for (const tool of tools) {
    if (tool.type === 'builtin') {
      // decideTools kept only the tools Gemini runs (native) or has its own of (mapped).
      const built = builtinToolTreatment(tool, geminiCapabilities) === 'native' || !tool.capability ? tool.raw : ownTool[tool.capability];
      // Two tools of one capability (e.g. two searches) are one Gemini tool.
      if (!builtins.some((existing) => Object.keys(existing)[0] === Object.keys(built)[0])) builtins.push(built);
      continue;
    }
    const declaration: Json = { name: tool.name, parametersJsonSchema: tool.parameters };
    if (tool.description) declaration.description = tool.description;
    declarations.push(declaration);
  }
  return declarations.length > 0 ? [{ functionDeclarations: declarations }, ...builtins] : builtins;
}

function toToolConfig(choice: ToolChoice | undefined, tools: ToolDefinition[]): Json | undefined {
  const strict = tools.some((tool) => tool.type === 'function' && tool.strict === true);
  let calling: Json | undefined;
  switch (choice?.type) {
    case undefined:
    case 'auto':
      calling = strict ? { mode: 'VALIDATED' } : choice ? { mode: 'AUTO' } : undefined;
      break;
    case 'none':
      calling = { mode: 'NONE' };
      break;
    case 'required':
      calling = { mode: 'ANY' };
      break;
    case 'tool':
      // A forced provider-run tool has no Gemini switch: the model decides whether to search or run code.
      calling = tools.some((tool) => tool.type === 'function' && tool.name === choice.name) ? { mode: 'ANY', allowedFunctionNames: [choice.name] } : undefined;
      break;
  }
  return calling ? { functionCallingConfig: calling } : undefined;
}
