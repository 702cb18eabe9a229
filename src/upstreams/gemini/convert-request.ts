/**
 * ChatRequest → Gemini GenerateContent request body (the translation path).
 *
 * Choices worth knowing:
 * - Schemas go as JSON Schema (`parametersJsonSchema`, `responseJsonSchema`),
 *   which Gemini takes as they are; strict tools ask for VALIDATED calling.
 * - Thinking: a budget goes as `thinkingBudget`, an effort word as
 *   `thinkingLevel`; thoughts are requested back unless the client said not
 *   to show them; thinking explicitly off is a zero budget.
 * - `parallelToolCalls: false` has no Gemini field (the model decides), nor
 *   does `user`, an end-user id with no effect on the answer.
 * - Features: the ones a content-generation client can set that only shape
 *   the request (cached content, safety settings, media resolution, service
 *   tier…) are forwarded; the ones whose answer the internal representation
 *   cannot carry back (several candidates, logprobs, audio or image output)
 *   are refused by name.
 */
import type { ChatRequest, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { unsupportedFeature } from '../../core/errors.js';
import { toGeminiContents } from './convert-contents.js';
import { toolsToSend } from '../plan.js';
import { answerShapingFeatures, geminiCapabilities } from './capabilities.js';

type Json = Record<string, unknown>;


export function toGeminiRequest(request: ChatRequest, upstreamModel: string): Json {
  const body: Json = { contents: toGeminiContents(request.messages, upstreamModel) };
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] };
  const generationConfig = generationConfigOf(request);
  const tools = toolsToSend(request.tools, geminiCapabilities);
  if (tools.length > 0) {
    body.tools = toTools(tools);
    const toolConfig = toToolConfig(request.toolChoice, tools);
    if (toolConfig) body.toolConfig = toolConfig;
  }
  applyFeatures(body, generationConfig, request.features);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}

function generationConfigOf(request: ChatRequest): Json {
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
  else if (thinking.effort !== undefined) config.thinkingLevel = thinking.effort;
  return config;
}

function toTools(tools: ToolDefinition[]): Json[] {
  const declarations: Json[] = [];
  const builtins: Json[] = [];
  for (const tool of tools) {
    if (tool.type === 'builtin') {
      if (tool.dialect !== 'generate')
        throw unsupportedFeature(`tool ${tool.kind}`, `a ${tool.dialect} builtin tool cannot run on a Gemini upstream`);
      builtins.push(tool.raw);
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
      calling = { mode: 'ANY', allowedFunctionNames: [choice.name] };
      break;
  }
  return calling ? { functionCallingConfig: calling } : undefined;
}

function applyFeatures(body: Json, config: Json, features: Record<string, unknown> | undefined): void {
  for (const [name, value] of Object.entries(features ?? {})) {
    const reason = answerShapingFeatures[name];
    if (reason) throw unsupportedFeature(name, `${reason}; send it as a content-generation request to get it from a Gemini upstream`);
    switch (name) {
      case 'cachedContent':
      case 'safetySettings':
      case 'serviceTier':
      case 'store':
      case 'continuationToken':
        body[name] = value;
        break;
      case 'mediaResolution':
      case 'enableEnhancedCivicAnswers':
      case 'audioTimestamp':
        config[name] = value;
        break;
      default:
        throw unsupportedFeature(name, 'the gemini upstream does not know this option');
    }
  }
}
