/**
 * The internal representation of a chat exchange: the one language every
 * client dialect (family) and every upstream dialect converts to and from.
 *
 * Hub and spoke: a family converts its request into a ChatRequest, an upstream
 * adapter converts the ChatRequest into its wire format, and answers flow back
 * as a ChatResponse (plain) or an ordered stream of ChatEvents.
 */

import type { CacheMark, PromptCache } from './cache-intent.js';

export type JsonSchema = Record<string, unknown>;

export interface TextPart {
  type: 'text';
  text: string;
  /** Provider-specific citation objects, passed along where both sides understand them. */
  citations?: unknown[];
  /** A cache breakpoint the client placed on this part. */
  cache?: CacheMark;
}

/** An image, document, audio or video input, inline (base64) or by URL. */
export interface MediaPart {
  type: 'media';
  mediaType: string;
  data?: string;
  url?: string;
  filename?: string;
  /** Plain-text documents keep their text here instead of `data`. */
  text?: string;
  title?: string;
  /** A cache breakpoint the client placed on this part. */
  cache?: CacheMark;
}

export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Opaque reasoning state the provider attached to the call (Gemini `thoughtSignature`), for the same provider only. */
  signature?: string;
  /** The reasoning origin of `signature` (its protocol, or its provider where the state is account-bound); state goes back only to an upstream of that origin (see reasoning-state.ts). */
  origin?: string;
  /** A cache breakpoint the client placed on this part. */
  cache?: CacheMark;
}

export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  /** The name of the tool that was called, when the dialect carries it (Gemini needs it). */
  name?: string;
  content: Array<TextPart | MediaPart>;
  isError?: boolean;
  /** A cache breakpoint the client placed on this part (or inside its content). */
  cache?: CacheMark;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  /** Opaque proof of the thought, to send back to the same provider. */
  signature?: string;
  /** Redacted (encrypted) thinking: no text, only data to send back. */
  redactedData?: string;
  /**
   * The reasoning origin of `signature` or `redactedData` (its protocol, or
   * its provider where the state is account-bound), known when the state
   * came back sealed by this gateway; state goes back only to an upstream of that origin.
   */
  origin?: string;
}

export type ContentPart = TextPart | MediaPart | ToolCallPart | ToolResultPart | ThinkingPart;

/**
 * A conversation turn. `system` turns are instructions placed inside the
 * conversation (a Messages `role: "system"` message, a Responses developer
 * message after the first turn); they hold text parts only. The leading
 * system prompt stays in `ChatRequest.system`. Each upstream keeps a system
 * turn at its position where its dialect can, and folds it into its system
 * prompt otherwise (a `mapped` decision in its translation plan).
 */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: ContentPart[];
}

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: JsonSchema;
  strict?: boolean;
  /**
   * The client asked the provider to load the tool only when a tool search
   * finds it (Messages `defer_loading`). Translation sends it loaded, like any
   * function tool: a `mapped` decision in the plan.
   */
  deferLoading?: boolean;
}

/**
 * What a provider-run tool does, in words every dialect shares, so an upstream
 * of another dialect can run its own equivalent (web search → Anthropic's
 * `web_search_*` tool, Gemini's Google Search grounding).
 */
export type BuiltinCapability = 'web_search' | 'web_fetch' | 'code_execution';

/**
 * A tool run by the provider itself (computer use, web search, code execution…).
 * `dialect` names the wire dialect that defined it. An upstream of that
 * dialect forwards it as is; another upstream runs its own equivalent of the
 * `capability` when it has one, and otherwise leaves the tool out (its
 * translation plan says so), unless `tool_choice` forces that very tool.
 */
export interface BuiltinTool {
  type: 'builtin';
  dialect: Dialect;
  /** The dialect's own type word, e.g. `computer_20241022`, `web_search_preview`, `codeExecution`. */
  kind: string;
  /** The shared meaning of the tool, when it has one other providers offer. */
  capability?: BuiltinCapability;
  /** The tool definition exactly as the client sent it. */
  raw: Record<string, unknown>;
}

export type ToolDefinition = FunctionTool | BuiltinTool;

export type ToolChoice = { type: 'auto'; disableParallel?: boolean } | { type: 'none' } | { type: 'required'; disableParallel?: boolean } | { type: 'tool'; name: string; disableParallel?: boolean };

export type ResponseFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name?: string; schema: JsonSchema; strict?: boolean; description?: string };

export interface ThinkingConfig {
  enabled: boolean;
  budgetTokens?: number;
  /** The model chooses its own budget (Messages `adaptive`, Gemini `thinkingLevel`, Responses `effort`). */
  adaptive?: boolean;
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Whether the client wants the thoughts returned (Gemini `includeThoughts`, Responses summaries). */
  includeThoughts?: boolean;
}

/** The wire dialects of the chat families (legacy `completions` included, served through chat upstreams or an upstream's own `/completions`). */
export type Dialect = 'messages' | 'generate' | 'responses' | 'chat-completions' | 'completions';

/** Answer-changing options, by the dialect whose client sent them. */
export type DialectFeatures = Partial<Record<Dialect, Record<string, unknown>>>;

/** Every feature a request carries, with its dialect. */
export function featureEntries(features: DialectFeatures | undefined): Array<[Dialect, string, unknown]> {
  const out: Array<[Dialect, string, unknown]> = [];
  for (const [dialect, bag] of Object.entries(features ?? {}) as Array<[Dialect, Record<string, unknown>]>) {
    for (const [name, value] of Object.entries(bag)) out.push([dialect, name, value]);
  }
  return out;
}

export interface ChatRequest {
  /** The model name as the client sent it (before channel model mapping). */
  model: string;
  system?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  thinking?: ThinkingConfig;
  user?: string;
  stream: boolean;
  /**
   * Options that change the answer and only some upstreams can honour (e.g.
   * `logprobs`, `candidateCount`), by the dialect that sent them, keyed by
   * the client's field name (each dialect declares its keys in
   * dialects/<dialect>/). Only an upstream of the same dialect can honour
   * one; a channel whose translation plan cannot is skipped; the client gets
   * a 400 naming it only when no candidate can.
   */
  features?: DialectFeatures;
  /** The client's prompt-caching intent beyond the marks on content parts; absent when it expressed none. */
  cache?: PromptCache;
  /**
   * Client fields that cannot change the answer (cache keys, client metadata,
   * context-management edits, service tiers…), keyed by the client's field
   * name. Forwarded where an upstream has the same field, otherwise ignored;
   * either way named in the translation plan.
   */
  hints?: Record<string, unknown>;
}

export type FinishReason = 'stop' | 'length' | 'stop_sequence' | 'tool_use' | 'content_filter' | 'refusal' | 'pause' | 'error' | 'other';

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The part of cacheWriteTokens written with the one-hour TTL (Anthropic); the rest is five-minute. */
  cacheWrite1hTokens?: number;
  /** The part of outputTokens spent on reasoning. */
  reasoningTokens?: number;
  /** The parts the gateway counted with its tokenizer because the upstream's final usage never came; none when absent. */
  estimatedParts?: readonly EstimatedPart[];
}

/** A part of a usage the gateway may have to count itself: the prompt, or the answer. */
export type EstimatedPart = 'input' | 'output';

export interface ChatResponse {
  id: string;
  model: string;
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
  finishReason: FinishReason;
  stopSequence?: string | null;
  usage: Usage;
  /** The upstream told no usage, so `usage` holds zeros, not counts (the answer is then charged for its content). */
  usageUnreported?: true;
}

export type BlockStart = { type: 'text' } | { type: 'thinking' } | { type: 'redacted_thinking'; data: string } | { type: 'tool_call'; id: string; name: string };

/**
 * One event of a streamed answer. Blocks are numbered from 0 in the order they
 * start; a block's deltas come between its block_start and block_stop. Exactly
 * one `finish` ends a successful stream; a failure is thrown by the iterator.
 */
export type ChatEvent =
  | { type: 'message_start'; id?: string; model?: string; usage?: Partial<Usage> }
  | { type: 'block_start'; index: number; block: BlockStart }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; text: string }
  | { type: 'signature_delta'; index: number; signature: string }
  | { type: 'tool_input_delta'; index: number; json: string }
  | { type: 'block_stop'; index: number }
  /** `unreported`: the upstream told no usage, so `usage` holds zeros, not counts (the answer is then charged for what was delivered). */
  | { type: 'finish'; reason: FinishReason; stopSequence?: string | null; usage: Usage; unreported?: true };

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/**
 * What a usage says of the prompt alone: the counters an upstream reports
 * before it answers (Anthropic's message_start, a Gemini chunk's prompt
 * count). Its output counter is a placeholder, never what was delivered.
 */
export function promptPart(usage: Partial<Usage>): Partial<Usage> {
  const part: Partial<Usage> = {};
  if (usage.inputTokens !== undefined) part.inputTokens = usage.inputTokens;
  if (usage.cacheReadTokens !== undefined) part.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) part.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage.cacheWrite1hTokens !== undefined) part.cacheWrite1hTokens = usage.cacheWrite1hTokens;
  return part;
}
