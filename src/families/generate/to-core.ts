/**
 * Converts a validated GenerateContent request into the internal ChatRequest.
 * Options only some upstreams can honour go to `features` (see features.ts);
 * fields that cannot change the answer (billing `labels`, provider-run tool
 * parts left in the history…) go to `hints` (see hints.ts). Built-in tools become
 * BuiltinTools of the `generate` dialect, with the shared capability other
 * upstreams can run their own equivalent of (search, URL fetch, code execution).
 */
import type { BuiltinCapability, ChatRequest, FunctionTool, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { enumWrapperSchema } from './enum-output.js';
import { requestFeatures } from './features.js';
import { requestHints } from './hints.js';
import { standardTypeNames, toJsonSchema } from './json-schema.js';
import { builtinToolKinds, type BuiltinToolKind, type GenerateRequest, type GenerationConfig, type ThinkingConfigParam } from '../../dialects/generate/schema.js';
import { contentsToMessages } from './to-core-content.js';

export function generateToCore(req: GenerateRequest, model: string, stream: boolean): ChatRequest {
  const dropped = new Set<string>();
  const out: ChatRequest = { model, messages: contentsToMessages(req.contents, dropped), stream };
  const system = req.systemInstruction?.parts.map((part) => part.text ?? '').join('\n');
  if (system) out.system = system;
  const config = req.generationConfig;
  if (config) applyGenerationConfig(out, config);
  applyTools(out, req);
  const features = requestFeatures(req);
  if (features) out.features = { generate: features };
  const hints = requestHints(req, dropped);
  if (hints) out.hints = hints;
  return out;
}

function applyGenerationConfig(out: ChatRequest, config: GenerationConfig): void {
  if (config.maxOutputTokens !== undefined) out.maxTokens = config.maxOutputTokens;
  if (config.temperature !== undefined) out.temperature = config.temperature;
  if (config.topP !== undefined) out.topP = config.topP;
  if (config.topK !== undefined) out.topK = config.topK;
  if (config.stopSequences?.length) out.stopSequences = config.stopSequences;
  if (config.seed !== undefined) out.seed = config.seed;
  if (config.presencePenalty !== undefined) out.presencePenalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) out.frequencyPenalty = config.frequencyPenalty;
  const format = responseFormat(config);
  if (format) out.responseFormat = format;
  const thinking = config.thinkingConfig && thinkingConfig(config.thinkingConfig);
  if (thinking) out.thinking = thinking;
}

function responseFormat(config: GenerationConfig): ResponseFormat | undefined {
  if (config.responseMimeType === 'text/x.enum') {
    return { type: 'json_schema', name: 'enum_value', schema: enumWrapperSchema(config.responseSchema?.enum ?? []), strict: true };
  }
  if (config.responseMimeType !== 'application/json') return undefined;
  if (config.responseJsonSchema !== undefined) return { type: 'json_schema', name: 'response', schema: standardTypeNames(config.responseJsonSchema) as Record<string, unknown> };
  if (config.responseSchema !== undefined) return { type: 'json_schema', name: 'response', schema: toJsonSchema(config.responseSchema) };
  return { type: 'json_object' };
}

const effortByLevel: Record<string, ThinkingConfig['effort']> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
  XHIGH: 'high',
};

/**
 * A thinking level (any case) lets the model size its own thinking at that
 * effort: adaptive thinking. Budget -1 is adaptive with no effort, 0 turns
 * thinking off, a positive budget is a fixed budget; a config with none of
 * these only says whether to show thoughts.
 */
function thinkingConfig(config: ThinkingConfigParam): ThinkingConfig | undefined {
  const includeThoughts = config.includeThoughts === true;
  if (config.thinkingBudget === 0) return { enabled: false };
  if (config.thinkingLevel !== undefined || config.thinkingBudget === -1) {
    const out: ThinkingConfig = { enabled: true, adaptive: true, includeThoughts };
    const effort = config.thinkingLevel ? effortByLevel[config.thinkingLevel] : undefined;
    if (effort !== undefined) out.effort = effort;
    return out;
  }
  if (config.thinkingBudget !== undefined) return { enabled: true, includeThoughts, budgetTokens: config.thinkingBudget };
  return includeThoughts ? { enabled: true, includeThoughts } : undefined;
}

/** The shared meaning of the built-in tools other providers have an equivalent of. */
const capabilityOf: Partial<Record<BuiltinToolKind, BuiltinCapability>> = {
  googleSearch: 'web_search',
  googleSearchRetrieval: 'web_search',
  enterpriseWebSearch: 'web_search',
  urlContext: 'web_fetch',
  codeExecution: 'code_execution',
};

function applyTools(out: ChatRequest, req: GenerateRequest): void {
  const calling = req.toolConfig?.functionCallingConfig;
  const strict = calling?.mode === 'VALIDATED' ? true : undefined;
  let functions: FunctionTool[] = [];
  const builtins: ToolDefinition[] = [];
  for (const tool of req.tools ?? []) {
    for (const declaration of tool.functionDeclarations ?? []) {
      const parameters = declaration.parametersJsonSchema
        ? (standardTypeNames(declaration.parametersJsonSchema) as Record<string, unknown>)
        : declaration.parameters
          ? toJsonSchema(declaration.parameters)
          : { type: 'object', properties: {} };
      const fn: FunctionTool = { type: 'function', name: declaration.name, parameters };
      if (declaration.description) fn.description = declaration.description;
      if (strict) fn.strict = true;
      functions.push(fn);
    }
    for (const kind of builtinToolKinds) {
      if (tool[kind] === undefined) continue;
      const builtin: ToolDefinition = { type: 'builtin', dialect: 'generate', kind, raw: { [kind]: tool[kind] } };
      const capability = capabilityOf[kind];
      if (capability) builtin.capability = capability;
      builtins.push(builtin);
    }
  }
  let choice: ToolChoice | undefined;
  const allowed = calling?.allowedFunctionNames;
  // Functions outside allowedFunctionNames cannot be called, so they are not offered.
  if (allowed?.length) functions = functions.filter((fn) => allowed.includes(fn.name));
  if (calling?.mode === 'NONE') choice = { type: 'none' };
  else if (calling?.mode === 'ANY') choice = allowed?.length === 1 ? { type: 'tool', name: allowed[0] } : { type: 'required' };
  else if (calling?.mode === 'AUTO' || calling?.mode === 'VALIDATED') choice = { type: 'auto' };
  const tools: ToolDefinition[] = [...functions, ...builtins];
  if (tools.length > 0) out.tools = tools;
  if (choice && (functions.length > 0 || choice.type === 'none')) out.toolChoice = choice;
}
