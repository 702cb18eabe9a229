/**
 * ChatRequest → OpenAI Responses request body (the translation path, for
 * Messages and content-generation clients): the adapter's `prepare`, one
 * pass that builds the body and decides each field (see upstreams/plan.ts)
 * where it handles it.
 *
 * Choices worth knowing:
 * - Stateless: `store: false`, the whole conversation goes as input items, and
 *   with thinking on `include: ["reasoning.encrypted_content"]` brings the
 *   reasoning back in a form that can be sent again (see reasoning-proof.ts).
 *   Thinking parts of other providers cannot be read by this service and are
 *   left out.
 * - Function tools are sent with an explicit `strict` (the service's default
 *   is strict, which would reject many ordinary schemas).
 * - top_k, seed and hints of other dialects are not sent (hints in the
 *   plan); stop sequences are refused unless the channel sets
 *   `dropUnsupportedParams: true`, and never sent; features are refused.
 * - System turns inside the conversation become `developer` messages at
 *   their place; web search tools of other dialects become `web_search`;
 *   adaptive thinking becomes the client's effort, else `medium`.
 * - `prompt_cache_key` and `prompt_cache_retention`: see ../openai-prompt-cache.ts.
 * - Tool results become `function_call_output` items (text joined; images and
 *   files are refused, the item carries text only here), as are media in
 *   assistant turns.
 */
import type { ChatMessage, ChatRequest, Dialect, MediaPart, ResponseFormat, TextPart, ThinkingConfig, ToolChoice, ToolDefinition, ToolResultPart } from '../../../core/chat.js';
import { PlanRank, type PlanBuilder } from '../../../core/translation-plan.js';
import { openAiPromptCacheFields, sentBody } from '../../openai-prompt-cache.js';
import {
  bucketedEffort,
  builtinToolTreatment,
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
import { openAiResponsesCapabilities, openAiResponsesCapabilitiesFor } from './capabilities.js';
import { unpackReasoning } from './reasoning-proof.js';
import type { Serving } from '../../endpoint.js';
import { responsesSettings, type ResponsesSettings } from './settings.js';

type Json = Record<string, unknown>;

export type ResponsesPrepared = Prepared<Json>;

/** The rank of this upstream's own decisions, after the shared ones (core/translation-plan.ts). */
const RANK = { stopSequences: PlanRank.rules, assistantMedia: PlanRank.rules + 1, toolResultMedia: PlanRank.rules + 2, media: PlanRank.rules + 3 };

/** What `toResponsesRequest` prepares for: the openai-responses type. */
const openAiResponsesServing: Serving = { type: 'openai-responses', named: 'openai-responses upstream', reasoningOrigin: 'openai-responses' };

export function prepareResponses(request: ChatRequest, options: PrepareOptions<ResponsesSettings>, serving: Serving): ResponsesPrepared {
  return preparing<ResponsesPrepared>(serving, options.strict, (plan) => ({ body: buildResponsesRequest(request, options, serving.reasoningOrigin, plan) }));
}

/** The body as sent for a session, for callers that need no plan (the decisions are dropped); `settings` as a channel stores them. */
export function toResponsesRequest(request: ChatRequest, upstreamModel: string, settings: Record<string, unknown> = {}, sessionKey?: string, serving = openAiResponsesServing): Json {
  return sentBody(prepareResponses(request, { strict: false, settings: responsesSettings.read(settings), upstreamModel }, serving).body, sessionKey);
}

function buildResponsesRequest(request: ChatRequest, { settings, upstreamModel, dialect }: PrepareOptions<ResponsesSettings>, origin: string, plan: PlanBuilder): Json {
  const caps = openAiResponsesCapabilitiesFor(settings);
  decideSystemTurns(request, caps, plan);
  const input: Json[] = [];
  for (const message of request.messages) appendMessage(input, message, origin, plan);

  const body: Json = { model: upstreamModel, input, store: false };
  if (request.system) body.instructions = request.system;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  // top_k and seed have no field here: hints, not sent.
  decideSampling(request, caps, plan);
  // Nor do stop sequences, which change the answer: refused, unless the channel drops them.
  if (request.stopSequences?.length) {
    if (settings.dropUnsupportedParams) plan.hint('stop_sequences', 'dropped, as the channel setting dropUnsupportedParams asks: the upstream has no stop sequences', RANK.stopSequences);
    else plan.refused('stop_sequences', 'has no stop sequences', RANK.stopSequences);
  }
  const tools = decideTools(request, caps, plan);
  if (tools.length > 0) {
    body.tools = tools.map(toTool);
    if (request.toolChoice) body.tool_choice = toToolChoice(request.toolChoice);
  }
  const choice = request.toolChoice;
  if ((choice && 'disableParallel' in choice && choice.disableParallel) || request.parallelToolCalls === false) body.parallel_tool_calls = false;
  const format = request.responseFormat && toTextFormat(request.responseFormat);
  if (format) {
    body.text = { format };
    decideResponseFormat(request, dialect, 'text.format', plan);
  }
  decideAdaptiveThinking(request, caps, plan);
  const reasoning = toReasoning(request.thinking, dialect, plan);
  if (reasoning) {
    body.reasoning = reasoning;
    body.include = ['reasoning.encrypted_content'];
  }
  decideFeatures(request, caps, plan);
  decideHints(request, caps, plan);
  if (request.user) body.user = request.user;
  decidePromptCache(request, caps.promptCache, plan);
  Object.assign(body, openAiPromptCacheFields(request, settings, true));
  if (request.stream) body.stream = true;
  return body;
}

function appendMessage(input: Json[], message: ChatMessage, origin: string, plan: PlanBuilder): void {
  if (message.role === 'assistant') return appendAssistant(input, message, origin, plan);
  if (message.role === 'system') return appendSystemTurn(input, message);
  const rest: Array<TextPart | MediaPart> = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') input.push(toToolOutput(part, plan));
    else if (part.type === 'text' || part.type === 'media') rest.push(part);
  }
  if (rest.length > 0) input.push({ role: 'user', content: rest.map((part) => toInputPart(part, plan)) });
}

/** Text runs become assistant messages, tool calls `function_call` items, readable thinking `reasoning` items, in order. */
/** `origin`: the reasoning origin whose encrypted reasoning goes back (bound to the account that made it). */
function appendAssistant(input: Json[], message: ChatMessage, origin: string, plan: PlanBuilder): void {
  let text = '';
  const flush = () => {
    if (text !== '') input.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool_call') {
      flush();
      input.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: JSON.stringify(part.input) });
    } else if (part.type === 'thinking') {
      // Only reasoning of this endpoint's origin goes back (another account's cannot be decrypted here).
      const proof = part.origin === origin ? unpackReasoning(part.signature) : undefined;
      if (!proof) continue;
      flush();
      const summary = part.text === '' ? [] : [{ type: 'summary_text', text: part.text }];
      input.push({ type: 'reasoning', id: proof.id, encrypted_content: proof.encrypted, summary });
    } else if (part.type === 'media' && !plan.has('media in assistant turns', 'refused')) {
      plan.refused('media in assistant turns', 'carries text only in assistant messages', RANK.assistantMedia);
    }
  }
  flush();
}

/** Instructions placed inside the conversation: this dialect's developer message, at the same place. */
function appendSystemTurn(input: Json[], message: ChatMessage): void {
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).filter((line) => line !== '');
  if (text.length > 0) input.push({ role: 'developer', content: text.join('\n') });
}

function toToolOutput(part: ToolResultPart, plan: PlanBuilder): Json {
  const texts: string[] = [];
  for (const inner of part.content) {
    if (inner.type === 'text') texts.push(inner.text);
    else if (!plan.has('media in tool results', 'refused')) plan.refused('media in tool results', 'sends tool results as text only', RANK.toolResultMedia);
  }
  const output = texts.join('\n');
  return { type: 'function_call_output', call_id: part.callId, output: part.isError ? `Error: ${output}` : output };
}

function toInputPart(part: TextPart | MediaPart, plan: PlanBuilder): Json {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  const { mediaType } = part;
  const inline = part.data !== undefined ? `data:${mediaType};base64,${part.data}` : undefined;
  if (mediaType.startsWith('image/')) {
    const url = inline ?? part.url;
    if (url !== undefined) return { type: 'input_image', image_url: url, detail: 'auto' };
  } else {
    if (mediaType.startsWith('text/') && (part.text !== undefined || part.data !== undefined)) {
      return { type: 'input_text', text: part.text ?? Buffer.from(part.data as string, 'base64').toString('utf8') };
    }
    const filename = part.filename ?? part.title ?? (mediaType === 'application/pdf' ? 'document.pdf' : 'file');
    if (inline !== undefined) return { type: 'input_file', filename, file_data: inline };
    if (part.url !== undefined) return { type: 'input_file', file_url: part.url };
  }
  plan.refused(`media type ${mediaType}`, 'needs its data or a URL', RANK.media);
  return { type: 'input_text', text: '' };
}

function toTool(tool: ToolDefinition): Json {
  if (tool.type === 'builtin') {
    // decideTools kept only what is forwarded as it is (native) or mapped to the service's own search.
    return builtinToolTreatment(tool, openAiResponsesCapabilities) === 'native' ? tool.raw : { type: 'web_search' };
  }
  const out: Json = { type: 'function', name: tool.name, parameters: tool.parameters, strict: tool.strict ?? false };
  if (tool.description) out.description = tool.description;
  return out;
}

function toToolChoice(choice: ToolChoice): string | Json {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', name: choice.name };
  }
}

function toTextFormat(format: ResponseFormat): Json | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const out: Json = { type: 'json_schema', name: format.name ?? 'response', schema: format.schema, strict: format.strict ?? false };
  if (format.description) out.description = format.description;
  return out;
}

/** The client's effort word, else its budget bucketed like the other adapters' effort budgets; adaptive thinking without either is `medium`. */
function toReasoning(thinking: ThinkingConfig | undefined, dialect: Dialect | undefined, plan: PlanBuilder): Json | undefined {
  if (!thinking?.enabled && !thinking?.adaptive) return undefined;
  let effort = thinking.effort;
  if (!effort && !thinking.adaptive && thinking.budgetTokens !== undefined) effort = bucketedEffort(thinking.budgetTokens, dialect, plan);
  const out: Json = { effort: effort ?? 'medium' };
  if (thinking.includeThoughts) out.summary = 'auto';
  return out;
}
