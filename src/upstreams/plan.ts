/**
 * The translation planner shared by every upstream adapter: one pure pass
 * over a translated ChatRequest that decides, field by field, what the
 * upstream will do with it (see core/translation-plan.ts). Each adapter
 * declares what it can do as `TranslationCapabilities` (its
 * `capabilities.ts`) and may add rules of its own; converters then follow the
 * plan (they drop what it ignores and never refuse on their own).
 */
import { hasCacheMarks } from '../core/prompt-cache.js';
import { featureEntries, type BuiltinCapability, type BuiltinTool, type ChatRequest, type Dialect, type ToolDefinition } from '../core/chat.js';
import { PlanBuilder, type TranslationPlan } from '../core/translation-plan.js';

/** Sampling parameters some dialects lack: ignored as hints where missing (they tune, they do not change what is asked). */
export type SamplingParameter = 'topK' | 'seed' | 'presencePenalty' | 'frequencyPenalty';

/** Each sampling parameter with its wire name, listed once (the planner runs on every translated request). */
const samplingFieldNames: ReadonlyArray<readonly [SamplingParameter, string]> = [
  ['topK', 'top_k'],
  ['seed', 'seed'],
  ['presencePenalty', 'presence_penalty'],
  ['frequencyPenalty', 'frequency_penalty'],
];

export interface TranslationCapabilities {
  /** The channel type, named in refusals. */
  type: string;
  /** The upstream's own dialect, whose provider-run tools it forwards as they are. */
  dialect?: Dialect;
  /** Keys of `ChatRequest.features` of its own dialect it honours. */
  features?: ReadonlySet<string>;
  /** Keys of `ChatRequest.hints` it forwards (it has a field of the same meaning); others are ignored. */
  hints?: ReadonlySet<string>;
  /** Provider-run tool kinds of its own dialect it runs (`has` may match families of kinds). */
  builtinTools?: { has(kind: string): boolean };
  /** Shared capabilities it runs with a tool of its own (web search → its search tool). */
  builtinCapabilities?: ReadonlySet<BuiltinCapability>;
  /** Sampling parameters it has no field for. */
  missingSampling?: ReadonlySet<SamplingParameter>;
  /** Whether system turns inside the conversation keep their place (`native`) or fold into the system prompt (`mapped`). */
  systemTurns: 'native' | 'mapped';
  /** Whether "let the model choose the thinking budget" exists upstream (`native`) or becomes an effort or budget (`mapped`). */
  adaptiveThinking: 'native' | 'mapped';
  /** What the upstream's prompt cache makes of the client's caching intent; what it has no place for is ignored (a hint). */
  promptCache?: PromptCacheSupport;
}

/** Per part of `ChatRequest.cache` (and the marks on parts): `native` (the same field), or what it becomes (`mapped`, with this note). */
export interface PromptCacheSupport {
  /** `cache_control` breakpoints. */
  marks?: string;
  /** `prompt_cache_key`. */
  key?: 'native' | string;
  /** `prompt_cache_retention`. */
  retention?: 'native' | string;
}

export interface PlanOptions {
  /** Refuse what would be ignored (a key or channel setting). */
  strict: boolean;
  /** The channel's settings, for adapters whose choices depend on them. */
  settings: Record<string, unknown>;
}

/** Adapter-specific rules, run after the shared ones on the same builder. */
export type ExtraRules = (request: ChatRequest, plan: PlanBuilder, options: PlanOptions) => void;

export function planTranslation(request: ChatRequest, caps: TranslationCapabilities, options: PlanOptions, extra?: ExtraRules): TranslationPlan {
  const plan = new PlanBuilder(caps.type);
  if (request.messages.some((message) => message.role === 'system')) {
    if (caps.systemTurns === 'native') plan.native('system messages');
    else plan.mapped('system messages', 'folded into the system prompt');
  }
  if (request.thinking?.adaptive) {
    if (caps.adaptiveThinking === 'native') plan.native('thinking.adaptive');
    else plan.mapped('thinking.adaptive', request.thinking.effort ? `effort ${request.thinking.effort}` : 'a default budget');
  }
  for (const [parameter, field] of samplingFieldNames) {
    if (request[parameter] !== undefined && caps.missingSampling?.has(parameter)) plan.hint(field, `the ${caps.type} upstream has no ${field}`);
  }
  for (const tool of request.tools ?? []) {
    if (tool.type === 'builtin') planBuiltinTool(tool, request, caps, plan);
  }
  if (request.tools?.some((tool) => tool.type === 'function' && tool.deferLoading)) plan.mapped('defer_loading', 'deferred tools are sent loaded');
  for (const [dialect, feature] of featureEntries(request.features)) {
    if (dialect === caps.dialect && caps.features?.has(feature)) plan.native(feature);
    else plan.refused(feature, 'cannot honour it');
  }
  for (const hint of Object.keys(request.hints ?? {})) {
    if (caps.hints?.has(hint)) plan.native(hint);
    else plan.hint(hint);
  }
  planPromptCache(request, caps.promptCache ?? {}, plan);
  extra?.(request, plan, options);
  return plan.build(options.strict);
}

/** The client's caching intent never changes the answer: what an upstream cannot use is a hint. */
function planPromptCache(request: ChatRequest, support: PromptCacheSupport, plan: PlanBuilder): void {
  const decide = (field: string, present: boolean, treatment: string | undefined, missing: string) => {
    if (!present) return;
    if (treatment === 'native') plan.native(field);
    else if (treatment !== undefined) plan.mapped(field, treatment);
    else plan.hint(field, missing);
  };
  decide('cache_control', hasCacheMarks(request), support.marks, 'the upstream has no cache breakpoints');
  decide('prompt_cache_key', request.cache?.key !== undefined, support.key, 'the upstream has no cache key');
  decide('prompt_cache_retention', request.cache?.retention !== undefined, support.retention, 'the upstream sets its own cache lifetime');
}

function planBuiltinTool(tool: BuiltinTool, request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): void {
  const field = `tool ${tool.kind}`;
  if (tool.dialect === caps.dialect && caps.builtinTools?.has(tool.kind)) {
    plan.native(field);
  } else if (tool.capability && caps.builtinCapabilities?.has(tool.capability)) {
    plan.mapped(field, `the upstream's own ${tool.capability.replace('_', ' ')}`);
  } else if (isForced(tool, request)) {
    plan.refused(field, 'does not provide it, and tool_choice requires it');
  } else {
    plan.hint(field, 'left out: the upstream runs no such tool');
  }
}

function isForced(tool: BuiltinTool, request: ChatRequest): boolean {
  const choice = request.toolChoice;
  return choice?.type === 'tool' && (choice.name === tool.kind || choice.name === tool.raw.name);
}

/**
 * Whether a converter should send a builtin tool, and how: `native` (as the
 * client wrote it), `mapped` (the upstream's own tool for its capability) or
 * undefined (left out). The same rule the plan reported.
 */
export function builtinToolTreatment(tool: BuiltinTool, caps: TranslationCapabilities): 'native' | 'mapped' | undefined {
  if (tool.dialect === caps.dialect && caps.builtinTools?.has(tool.kind)) return 'native';
  if (tool.capability && caps.builtinCapabilities?.has(tool.capability)) return 'mapped';
  return undefined;
}

/** Media parts in assistant turns, which some dialects cannot carry. */
export function hasAssistantMedia(request: ChatRequest): boolean {
  return request.messages.some((m) => m.role === 'assistant' && m.content.some((part) => part.type === 'media'));
}

/** Media inside tool results, which some dialects carry as text only. */
export function hasToolResultMedia(request: ChatRequest): boolean {
  return request.messages.some((m) => m.content.some((part) => part.type === 'tool_result' && part.content.some((inner) => inner.type === 'media')));
}

/**
 * The tools a converter sends: function tools, and the provider-run tools its
 * plan kept (native or mapped). Builtin tools the plan left out are dropped here.
 */
export function toolsToSend(tools: readonly ToolDefinition[] | undefined, caps: TranslationCapabilities): ToolDefinition[] {
  return (tools ?? []).filter((tool) => tool.type === 'function' || builtinToolTreatment(tool, caps) !== undefined);
}
