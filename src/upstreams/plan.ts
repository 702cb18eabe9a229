/**
 * The translation rules shared by every upstream adapter. An adapter's
 * `prepare` builds the upstream body in one pass over a translated
 * ChatRequest and, at the place it handles each field, records what the
 * upstream will do with it (see core/translation-plan.ts) with the functions
 * below: a decision and the action that follows it are one piece of code.
 * Each adapter declares what it can do as `TranslationCapabilities` (its
 * `capabilities.ts`); nothing it cannot serve is thrown: it is refused in
 * the plan, and the channel is skipped before routing.
 */
import { hasCacheMarks } from '../core/prompt-cache.js';
import { featureEntries, type BuiltinCapability, type BuiltinTool, type ChatRequest, type Dialect, type ToolDefinition } from '../core/chat.js';
import { PlanBuilder, PlanRank, type TranslationPlan } from '../core/translation-plan.js';

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
  /** The upstream's own dialect, whose provider-run tools it forwards as they are. */
  dialect?: Dialect;
  /** Keys of `ChatRequest.features` of its own dialect it honours. */
  features?: { has(feature: string): boolean };
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
  /** Fields of its own dialect the channel declares its server refuses or ignores (see `keepsField`). */
  unsupportedFields?: ReadonlySet<string>;
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

/** What `prepare` knows before routing: everything the body needs, none of it per attempt. */
export interface PrepareOptions<Settings> {
  /** Refuse what would be ignored (a key or channel setting). */
  strict: boolean;
  /** The channel's settings, as its type's schema outputs them (every default filled in; see typed-settings.ts). */
  settings: Settings;
  /** The model name to send upstream (after the channel's model mapping). */
  upstreamModel: string;
  /**
   * The client's dialect, so that a decision names a field as the client
   * wrote it (`clientField`) and a conversion of its spelling is seen.
   * Absent for a request the gateway writes itself (the admin channel test):
   * such conversions are then not reported.
   */
  dialect?: Dialect;
}

/**
 * How each client dialect spells a field the internal request carries under
 * one name; a dialect missing from a row has no such field.
 */
const clientSpelling = {
  /** Structured output (`ChatRequest.responseFormat`). */
  responseFormat: { messages: 'output_config.format', generate: 'responseMimeType', responses: 'text.format', 'chat-completions': 'response_format' },
  /** A fixed thinking budget. */
  thinkingBudget: { messages: 'thinking.budget_tokens', generate: 'thinkingConfig.thinkingBudget' },
  /** A thinking effort word (adaptive thinking aside). */
  thinkingEffort: { messages: 'output_config.effort', generate: 'thinkingConfig.thinkingLevel', responses: 'reasoning.effort', 'chat-completions': 'reasoning_effort' },
  /** "Do not show me the thoughts", said in so many words. */
  thoughtsOmitted: { messages: 'thinking.display' },
  /** The end user's id. */
  user: { messages: 'metadata.user_id', responses: 'user', 'chat-completions': 'user' },
} as const satisfies Record<string, Partial<Record<Dialect, string>>>;

export type ClientField = keyof typeof clientSpelling;

/** The client's own name for `field` in its dialect; undefined when the dialect is unknown or has no such field. */
export function clientField(field: ClientField, dialect: Dialect | undefined): string | undefined {
  return dialect === undefined ? undefined : (clientSpelling[field] as Partial<Record<Dialect, string>>)[dialect];
}

/**
 * Structured output as the upstream writes it (`sentAs`, its own field):
 * `native` where the client wrote that very field, else `mapped`, naming the
 * client's field. Unreported when the client's dialect is unknown.
 */
export function decideResponseFormat(request: ChatRequest, dialect: Dialect | undefined, sentAs: string, plan: PlanBuilder): void {
  const format = request.responseFormat;
  const field = clientField('responseFormat', dialect);
  if (!format || format.type === 'text' || field === undefined || field === sentAs) return;
  plan.mapped(field, `as ${sentAs}`, PlanRank.rules);
}

/**
 * A fixed thinking budget the upstream takes only as an effort word: the
 * word, bucketed like the anthropic adapter's effort budgets (≤4096 low,
 * ≤16384 medium, else high), recorded as `mapped`.
 */
export function bucketedEffort(budgetTokens: number, dialect: Dialect | undefined, plan: PlanBuilder): 'low' | 'medium' | 'high' {
  const effort = budgetTokens <= 4096 ? 'low' : budgetTokens <= 16384 ? 'medium' : 'high';
  plan.mapped(clientField('thinkingBudget', dialect) ?? 'thinking.budget_tokens', `bucketed into reasoning effort ${effort}`, PlanRank.rules);
  return effort;
}

/**
 * An upstream request built by one pass over a translated request: the body,
 * and what was decided for each field while building it. Adapters add what
 * else the call needs (Anthropic's beta flags…). A `body` whose plan refuses
 * is never sent.
 */
export interface Prepared<Body = Record<string, unknown>> {
  body: Body;
  decisions: TranslationPlan;
}

/**
 * Runs an adapter's one pass and seals its plan. An unexpected error while
 * building the body is a refusal naming it, never a throw: the channel is
 * skipped before routing instead of failing inside the failover loop.
 */
export function preparing<P extends Prepared<unknown>>(upstream: string | PlanUpstream, strict: boolean, build: (plan: PlanBuilder) => Omit<P, 'decisions'>): P {
  const plan = planFor(upstream);
  try {
    // The object the adapter just built takes its plan: no copy (a spread of it costs a request microseconds).
    const built = build(plan) as Omit<P, 'decisions'> & { decisions?: P['decisions'] };
    built.decisions = plan.build(strict);
    return built as P;
  } catch (error) {
    const failed = planFor(upstream).refused('request', `could not translate it (${error instanceof Error ? error.message : String(error)})`);
    return { body: {}, decisions: failed.build(strict) } as unknown as P;
  }
}

/** The type a plan is for, and how its refusals name it (an endpoint's `Serving`, src/upstreams/endpoint.ts). */
export interface PlanUpstream {
  readonly type: string;
  readonly named: string;
}

function planFor(upstream: string | PlanUpstream): PlanBuilder {
  return typeof upstream === 'string' ? new PlanBuilder(upstream) : new PlanBuilder(upstream.type, upstream.named);
}

/** System turns inside the conversation: kept in place (`native`) or folded into the system prompt (`mapped`). */
export function decideSystemTurns(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): void {
  if (!request.messages.some((message) => message.role === 'system')) return;
  if (caps.systemTurns === 'native') plan.native('system messages', undefined, PlanRank.systemTurns);
  else plan.mapped('system messages', 'folded into the system prompt', PlanRank.systemTurns);
}

/** "Let the model choose the thinking budget": the same (`native`), or an effort or budget (`mapped`). */
export function decideAdaptiveThinking(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): void {
  if (!request.thinking?.adaptive) return;
  if (caps.adaptiveThinking === 'native') plan.native('thinking.adaptive', undefined, PlanRank.adaptiveThinking);
  else plan.mapped('thinking.adaptive', request.thinking.effort ? `effort ${request.thinking.effort}` : 'a default budget', PlanRank.adaptiveThinking);
}

/** Sampling parameters the upstream has no field for: hints (the converter does not send them). */
export function decideSampling(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): void {
  if (!caps.missingSampling) return;
  for (const [parameter, field] of samplingFieldNames) {
    if (request[parameter] !== undefined && caps.missingSampling.has(parameter)) plan.hint(field, `the ${plan.named} has no ${field}`, PlanRank.sampling);
  }
}

/** Whether a sampling parameter is sent: the upstream has a field for it (`decideSampling` records the others). */
export function sendsSampling(parameter: SamplingParameter, caps: TranslationCapabilities): boolean {
  return caps.missingSampling?.has(parameter) !== true;
}

/**
 * Whether to send a field the request carries, by the fields the channel
 * declares its server does not take: a declared one is left out, ignored
 * (a hint) when that cannot change the answer, else refused before routing.
 */
export function keepsField(field: string, changesAnswer: boolean, caps: TranslationCapabilities, plan: PlanBuilder): boolean {
  if (caps.unsupportedFields?.has(field) !== true) return true;
  if (changesAnswer) plan.refused(field, "the channel's server does not take it", PlanRank.rules);
  else plan.hint(field, "left out: the channel's server does not take it", PlanRank.rules);
  return false;
}

/**
 * The tools to send, deciding each provider-run tool as it is kept or left
 * out: function tools, and the builtin tools the upstream runs (native) or
 * runs with a tool of its own (mapped).
 */
export function decideTools(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): ToolDefinition[] {
  const sent: ToolDefinition[] = [];
  let deferred = false;
  for (const tool of request.tools ?? []) {
    if (tool.type === 'function') {
      deferred ||= tool.deferLoading === true;
      sent.push(tool);
    } else if (decideBuiltinTool(tool, request, caps, plan) !== undefined) sent.push(tool);
  }
  if (deferred) plan.mapped('defer_loading', 'deferred tools are sent loaded', PlanRank.deferLoading);
  return sent;
}

/**
 * The features to forward, deciding each: those of the upstream's own
 * dialect it honours are `native` (returned, name and value, for the
 * converter to place); any other is refused, with `refusal(name)`'s reason when given.
 */
export function decideFeatures(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder, refusal?: (feature: string) => string | undefined): Array<[string, unknown]> {
  if (request.features === undefined) return [];
  const forwarded: Array<[string, unknown]> = [];
  for (const [dialect, feature, value] of featureEntries(request.features)) {
    const reason = dialect === caps.dialect ? refusal?.(feature) : undefined;
    if (reason === undefined && dialect === caps.dialect && caps.features?.has(feature)) {
      plan.native(feature, undefined, PlanRank.features);
      forwarded.push([feature, value]);
    } else plan.refused(feature, reason ?? 'cannot honour it', PlanRank.features);
  }
  return forwarded;
}

/** Other dialects' hints: forwarded where the upstream has the same field (`native`), else ignored. */
export function decideHints(request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): void {
  if (request.hints === undefined) return;
  for (const hint of Object.keys(request.hints)) {
    if (caps.hints?.has(hint)) plan.native(hint, undefined, PlanRank.hints);
    else plan.hint(hint, undefined, PlanRank.hints);
  }
}

/** The client's caching intent never changes the answer: what an upstream cannot use is a hint. */
export function decidePromptCache(request: ChatRequest, support: PromptCacheSupport | undefined, plan: PlanBuilder): void {
  const decide = (field: string, present: boolean, treatment: string | undefined, missing: string) => {
    if (!present) return;
    if (treatment === 'native') plan.native(field, undefined, PlanRank.promptCache);
    else if (treatment !== undefined) plan.mapped(field, treatment, PlanRank.promptCache);
    else plan.hint(field, missing, PlanRank.promptCache);
  };
  decide('cache_control', hasCacheMarks(request), support?.marks, 'the upstream has no cache breakpoints');
  decide('prompt_cache_key', request.cache?.key !== undefined, support?.key, 'the upstream has no cache key');
  decide('prompt_cache_retention', request.cache?.retention !== undefined, support?.retention, 'the upstream sets its own cache lifetime');
}

/** Decides one builtin tool: how it is sent (`native` as the client wrote it, `mapped` to the upstream's own tool), or undefined when left out. */
function decideBuiltinTool(tool: BuiltinTool, request: ChatRequest, caps: TranslationCapabilities, plan: PlanBuilder): 'native' | 'mapped' | undefined {
  const field = `tool ${tool.kind}`;
  const treatment = builtinToolTreatment(tool, caps);
  if (treatment === 'native') plan.native(field, undefined, PlanRank.builtinTools);
  else if (treatment === 'mapped') plan.mapped(field, `the upstream's own ${tool.capability!.replace('_', ' ')}`, PlanRank.builtinTools);
  else if (isForced(tool, request)) plan.refused(field, 'does not provide it, and tool_choice requires it', PlanRank.builtinTools);
  else plan.hint(field, 'left out: the upstream runs no such tool', PlanRank.builtinTools);
  return treatment;
}

function isForced(tool: BuiltinTool, request: ChatRequest): boolean {
  const choice = request.toolChoice;
  return choice?.type === 'tool' && (choice.name === tool.kind || choice.name === tool.raw.name);
}

/**
 * How a builtin tool the upstream keeps is sent: `native` (as the client
 * wrote it), `mapped` (the upstream's own tool for its capability) or
 * undefined (left out, see `decideTools`).
 */
export function builtinToolTreatment(tool: BuiltinTool, caps: TranslationCapabilities): 'native' | 'mapped' | undefined {
  if (tool.dialect === caps.dialect && caps.builtinTools?.has(tool.kind)) return 'native';
  if (tool.capability && caps.builtinCapabilities?.has(tool.capability)) return 'mapped';
  return undefined;
}
