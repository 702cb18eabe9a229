/**
 * ChatRequest → Anthropic Messages request body (the translation path): the
 * adapter's `prepare`, one pass that builds the body and decides each field
 * (see upstreams/plan.ts) where it handles it.
 *
 * Choices worth knowing:
 * - `max_tokens` is required upstream: when the client gave none, the channel
 *   setting `defaultMaxTokens` (4096 by default) is sent, plus the thinking budget.
 * - Structured output uses Anthropic's native JSON output (`output_config.format`,
 *   the GA shape; channel setting `outputFormatField: 'output_format'` sends the
 *   older beta shape with its beta header) rather than a forced `json` tool,
 *   so the answer stays a plain text block. `json_object` without a schema has
 *   no native equivalent and is refused, as are media other than images, PDF
 *   and plain-text documents.
 * - System turns inside the conversation join the top-level `system`, in
 *   order (many Anthropic-compatible servers refuse system-role messages).
 * - Thinking: a budget (the client's, else one by effort); with the channel
 *   setting `adaptiveThinking: true`, `{type: "adaptive"}` and
 *   `output_config.effort` instead.
 * - seed, presence/frequency penalties have no Messages equivalent: ignored
 *   (hints in the translation plan), as are provider-run
 *   tools of other dialects without an Anthropic equivalent; web search, web
 *   fetch and code execution become Anthropic's own tools (convert-tools.ts).
 * - Features of the Messages dialect (`mcp_servers`) are forwarded, others refused.
 * - Thinking goes back only when its state came from a Messages upstream
 *   (its sealed origin, `MESSAGES_REASONING_ORIGIN`: Anthropic's signatures
 *   are valid on every platform serving its models): another provider's
 *   thinking, or thinking without a signature, cannot be verified and is left out; citations in
 *   the history are not sent. When that leaves the last tool-calling assistant
 *   turn without its thought, thinking is off for the turn (thinking-continuity.ts).
 * - Prompt caching: the client's marks on content parts become the blocks'
 *   `cache_control`; breakpoints on tools and system, and the gateway's own
 *   where the client placed none, are added by cache-breakpoints.ts.
 */
import type { ChatMessage, ChatRequest, ContentPart, Dialect, MediaPart, TextPart, ThinkingConfig } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import {
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
} from '../../plan.js';
import type { Serving } from '../../endpoint.js';
import { anthropicCapabilitiesFor } from './capabilities.js';
import { cacheControlOf } from '../../../dialects/messages/cache-control.js';
import { placeCacheBreakpoints } from './cache-breakpoints.js';
import { toTool, toToolChoice } from './convert-tools.js';
import { thinkingBreaksContinuity } from './thinking-continuity.js';
import { messagesSettings, type MessagesSettings } from './settings.js';

const MIN_THINKING_BUDGET = 1024;
const STRUCTURED_OUTPUTS_BETA = 'structured-outputs-2025-11-13';
const MCP_CLIENT_BETA = 'mcp-client-2025-11-20';

const budgetByEffort: Record<NonNullable<ThinkingConfig['effort']>, number> = {
  minimal: 1024,
  low: 4096,
  medium: 16384,
  high: 32768,
};

export interface MessagesPrepared extends Prepared {
  /** Beta flags the translation needs on top of the client's. */
  betas: string[];
}

type Block = Record<string, unknown>;

/** The rank of this upstream's own decisions, after the shared ones (core/translation-plan.ts). */
const RANK = { thinking: PlanRank.rules, responseFormat: PlanRank.rules + 1, media: PlanRank.rules + 2 };

/**
 * The origin of the Messages protocol's reasoning state: Anthropic documents
 * its thinking signatures as valid across its API, Bedrock and Vertex, so
 * every provider of the protocol seals and takes back the same one. It keeps
 * the name the anthropic type sealed with, which clients' histories hold.
 */
export const MESSAGES_REASONING_ORIGIN = 'anthropic';

/** What `toMessagesRequest` prepares for: the anthropic type. */
const anthropicServing: Serving = { type: 'anthropic', named: 'anthropic upstream', reasoningOrigin: MESSAGES_REASONING_ORIGIN };

export function prepareMessages(request: ChatRequest, options: PrepareOptions<MessagesSettings>, serving: Serving): MessagesPrepared {
  return preparing<MessagesPrepared>(serving, options.strict, (plan) => buildMessagesRequest(request, options, serving.reasoningOrigin, plan));
}

/** The body and betas alone, for callers that need no plan (the decisions are dropped); `settings` as a channel stores them. */
export function toMessagesRequest(request: ChatRequest, upstreamModel: string, settings: Record<string, unknown> = {}, serving = anthropicServing): { body: Block; betas: string[] } {
  const { body, betas } = prepareMessages(request, { strict: false, settings: messagesSettings.read(settings), upstreamModel }, serving);
  return { body, betas };
}

function buildMessagesRequest(request: ChatRequest, { settings, upstreamModel, dialect }: PrepareOptions<MessagesSettings>, origin: string, plan: PlanBuilder): Omit<MessagesPrepared, 'decisions'> {
  const caps = anthropicCapabilitiesFor(settings);
  const betas: string[] = [];
  const body: Record<string, unknown> = { model: upstreamModel };
  decideAdaptiveThinking(request, caps, plan);
  const broken = thinkingBreaksContinuity(request, origin);
  if (broken) plan.mapped('thinking', 'off for this turn: the last assistant turn called tools without its signed thought, which Anthropic requires', RANK.thinking);
  const thinking = broken ? undefined : thinkingBlock(request.thinking, request.maxTokens, settings.adaptiveThinking, dialect, plan);
  const budget = typeof thinking?.budget_tokens === 'number' ? thinking.budget_tokens : 0;
  body.max_tokens = request.maxTokens ?? budget + settings.defaultMaxTokens;
  decideSystemTurns(request, caps, plan);
  const system = systemPrompt(request, plan);
  if (system) body.system = system;
  body.messages = request.messages
    .filter((message) => message.role !== 'system')
    .map((message) => toMessage(message, origin, plan))
    .filter((message) => (message.content as Block[]).length > 0);
  if (request.stopSequences?.length) body.stop_sequences = request.stopSequences;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  // seed and the penalties have no field here: hints, not sent.
  decideSampling(request, caps, plan);
  if (thinking) body.thinking = thinking;
  if (thinking?.type === 'adaptive' && request.thinking?.effort) outputConfig(body).effort = effortWord[request.thinking.effort];
  const tools = decideTools(request, caps, plan);
  if (tools.length > 0) {
    body.tools = tools.map((tool) => toTool(tool, caps));
    const choice = toToolChoice(request.toolChoice, request.parallelToolCalls, tools, caps);
    if (choice) body.tool_choice = choice;
  }
  if (request.responseFormat) applyResponseFormat(body, betas, request, settings.outputFormatField, dialect, plan);
  for (const [feature, value] of decideFeatures(request, caps, plan)) {
    if (feature !== 'mcp_servers' || value === undefined) continue;
    body.mcp_servers = value;
    betas.push(MCP_CLIENT_BETA);
  }
  decideHints(request, caps, plan);
  if (request.user) body.metadata = { user_id: request.user };
  if (request.stream) body.stream = true;
  decidePromptCache(request, caps.promptCache, plan);
  placeCacheBreakpoints(body, request, settings);
  return { body, betas };
}

/** The system prompt, then the text of every system turn, in order (media there have no place: one Anthropic could not take at all is refused). */
function systemPrompt(request: ChatRequest, plan: PlanBuilder): string | undefined {
  const texts = request.system ? [request.system] : [];
  for (const message of request.messages) {
    if (message.role !== 'system') continue;
    for (const part of message.content) if (part.type === 'media') mediaBlock(part, plan);
    const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n\n');
    if (text) texts.push(text);
  }
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

const effortWord: Record<NonNullable<ThinkingConfig['effort']>, string> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
};

function outputConfig(body: Block): Block {
  return (body.output_config ??= {}) as Block;
}

function thinkingBlock(config: ThinkingConfig | undefined, maxTokens: number | undefined, adaptive: boolean, dialect: Dialect | undefined, plan: PlanBuilder): Block | undefined {
  if (!config?.enabled) return undefined;
  if (adaptive) return { type: 'adaptive' };
  let budget = config.budgetTokens ?? budgetByEffort[config.effort ?? 'medium'];
  // Anthropic requires budget_tokens < max_tokens; shrink the budget rather than fail.
  if (maxTokens !== undefined && budget >= maxTokens) budget = maxTokens - 1;
  budget = Math.max(MIN_THINKING_BUDGET, budget);
  // An effort word becomes a budget (adaptive thinking's is decided by decideAdaptiveThinking).
  if (config.budgetTokens === undefined && config.effort && !config.adaptive) {
    plan.mapped(clientField('thinkingEffort', dialect) ?? 'reasoning_effort', `budget_tokens ${budget} by effort ${config.effort}`, RANK.thinking);
  }
  return { type: 'enabled', budget_tokens: budget };
}

function toMessage(message: ChatMessage, origin: string, plan: PlanBuilder): { role: string; content: Block[] } {
  const blocks: Block[] = [];
  for (const part of message.content) {
    const block = toBlock(part, origin, plan);
    if (!block) continue;
    if (part.type !== 'thinking' && part.cache) block.cache_control = cacheControlOf(part.cache);
    blocks.push(block);
  }
  // Anthropic wants tool results ahead of any other content in a user turn.
  if (message.role === 'user' && blocks.length > 1 && blocks.some((b, i) => i > 0 && b.type === 'tool_result')) {
    blocks.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  return { role: message.role, content: blocks };
}

function toBlock(part: ContentPart, origin: string, plan: PlanBuilder): Block | undefined {
  switch (part.type) {
    case 'text':
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'media':
      return mediaBlock(part, plan);
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.input };
    case 'tool_result': {
      const content = part.content.map((inner) => (inner.type === 'text' ? textBlock(inner) : mediaBlock(inner, plan))).filter(Boolean);
      const block: Block = { type: 'tool_result', tool_use_id: part.callId };
      if (content.length > 0) block.content = content;
      if (part.isError) block.is_error = true;
      return block;
    }
    case 'thinking':
      // Only a Messages upstream's state goes back; another provider's thinking cannot be verified here.
      if (part.origin !== origin) return undefined;
      if (part.redactedData !== undefined) return { type: 'redacted_thinking', data: part.redactedData };
      if (part.signature === undefined) return undefined;
      return { type: 'thinking', thinking: part.text, signature: part.signature };
  }
}

function textBlock(part: TextPart): Block | undefined {
  return part.text === '' ? undefined : { type: 'text', text: part.text };
}

/** Images, PDF and plain-text documents; any other media is refused (left out of the body, which is then never sent). */
function mediaBlock(part: MediaPart, plan: PlanBuilder): Block | undefined {
  const { mediaType } = part;
  if (mediaType.startsWith('image/') || mediaType === 'application/pdf') {
    const source = binarySource(part);
    if (!source) plan.refused(`media type ${mediaType}`, 'needs its data or a URL', RANK.media);
    else return mediaType === 'application/pdf' ? withTitle({ type: 'document', source }, part) : { type: 'image', source };
    return undefined;
  }
  if (mediaType.startsWith('text/')) {
    const text = part.text ?? (part.data !== undefined ? Buffer.from(part.data, 'base64').toString('utf8') : undefined);
    if (text !== undefined) return withTitle({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } }, part);
  }
  plan.refused(`media type ${mediaType}`, 'accepts images, PDF and plain-text documents only', RANK.media);
  return undefined;
}

function binarySource(part: MediaPart): Block | undefined {
  if (part.data !== undefined) return { type: 'base64', media_type: part.mediaType, data: part.data };
  if (part.url !== undefined) return { type: 'url', url: part.url };
  return undefined;
}

function withTitle(block: Block, part: MediaPart): Block {
  const title = part.title ?? part.filename;
  if (title) block.title = title;
  return block;
}

function applyResponseFormat(body: Block, betas: string[], request: ChatRequest, field: MessagesSettings['outputFormatField'], dialect: Dialect | undefined, plan: PlanBuilder): void {
  const format = request.responseFormat;
  if (!format || format.type === 'text') return;
  if (format.type === 'json_object') {
    plan.refused('response_format json_object', 'needs a JSON schema for structured output', RANK.responseFormat);
    return;
  }
  const outputFormat = { type: 'json_schema', schema: format.schema };
  decideResponseFormat(request, dialect, field === 'output_format' ? 'output_format' : 'output_config.format', plan);
  if (field === 'output_format') {
    body.output_format = outputFormat;
    betas.push(STRUCTURED_OUTPUTS_BETA);
  } else {
    outputConfig(body).format = outputFormat;
  }
}
