/**
 * Converts a validated Responses request (with the conversation it continues)
 * into the internal ChatRequest, for upstreams that do not speak the dialect.
 *
 * Choices worth knowing:
 * - `instructions` come first in the system prompt; the instructions of
 *   earlier turns are not carried over (as the spec says).
 * - `strict` on a function tool is passed on only when the client set it.
 * - Hosted tools become builtin tools of the `responses` dialect: only
 *   upstreams providing them may serve the request, others refuse by name.
 * - Parameters that only a native upstream can honour (`background`,
 *   `conversation`, `prompt`, logprobs, unknown fields…) are features, refused
 *   by name everywhere else. Pure hints (`prompt_cache_key`,
 *   `safety_identifier`, `service_tier`, `text.verbosity`…) are not sent.
 */
import type { ChatRequest, ResponseFormat, ThinkingConfig, ToolChoice, ToolDefinition } from '../../core/chat.js';
import type { SourcedItem } from './conversation.js';
import type { ReasoningParam, TextFormatParam } from './schema.js';
import type { ToolParam } from './schema-tools.js';
import { itemsToCore } from './to-core-items.js';
import { applyTruncation } from './truncation.js';
import type { ValidatedRequest } from './validate.js';

/** Top-level fields the translation reads or deliberately leaves out; any other field is a feature. */
const handledFields = new Set([
  'model',
  'input',
  'include',
  'instructions',
  'max_output_tokens',
  'metadata',
  'parallel_tool_calls',
  'previous_response_id',
  'reasoning',
  'service_tier',
  'store',
  'stream',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_p',
  'truncation',
  'user',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  'stream_options',
  'top_logprobs',
]);

export interface ToCoreOptions {
  /** The model's context window in tokens, when known. */
  contextWindow?: number;
}

export function responsesToCore(req: ValidatedRequest, items: readonly SourcedItem[], options: ToCoreOptions = {}): ChatRequest {
  const conversation = itemsToCore(items);
  const out: ChatRequest = { model: req.model, messages: conversation.messages, stream: req.stream ?? false };
  const system = [req.instructions ?? '', ...conversation.system].filter((text) => text !== '').join('\n\n');
  if (system) out.system = system;
  if (req.max_output_tokens != null) out.maxTokens = req.max_output_tokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.topP = req.top_p;
  if (req.tools?.length) out.tools = req.tools.map(toolToCore);
  if (req.tool_choice != null) out.toolChoice = toolChoiceToCore(req.tool_choice);
  if (req.parallel_tool_calls === false) out.parallelToolCalls = false;
  const format = req.text?.format ? formatToCore(req.text.format) : undefined;
  if (format) out.responseFormat = format;
  const thinking = req.reasoning ? reasoningToCore(req.reasoning) : undefined;
  if (thinking) out.thinking = thinking;
  if (req.user) out.user = req.user;
  const features = { ...conversation.features, ...unhandledFields(req) };
  if (Object.keys(features).length > 0) out.features = features;
  applyTruncation(out, options.contextWindow, req.truncation ?? 'disabled');
  return out;
}

function unhandledFields(req: ValidatedRequest): Record<string, unknown> {
  const features: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req)) {
    if (value === null || value === undefined || value === false || handledFields.has(key)) continue;
    features[key] = value;
  }
  if (typeof req.top_logprobs === 'number' && req.top_logprobs > 0) features.top_logprobs = req.top_logprobs;
  if (req.include?.includes('message.output_text.logprobs')) features['include message.output_text.logprobs'] = true;
  return features;
}

function toolToCore(tool: ToolParam): ToolDefinition {
  if (tool.type !== 'function') return { type: 'builtin', dialect: 'responses', kind: tool.type, raw: tool };
  const definition: ToolDefinition = {
    type: 'function',
    name: tool.name as string,
    parameters: (tool.parameters as Record<string, unknown> | null | undefined) ?? { type: 'object', properties: {} },
  };
  if (typeof tool.description === 'string') definition.description = tool.description;
  if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
  return definition;
}

function toolChoiceToCore(choice: NonNullable<ValidatedRequest['tool_choice']>): ToolChoice {
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'function') return { type: 'tool', name: (choice as { name: string }).name };
  // A hosted tool choice names the hosted tool's kind: an upstream that cannot run it must refuse (see upstreams/plan.ts).
  return { type: 'tool', name: choice.type };
}

function formatToCore(format: TextFormatParam): ResponseFormat | undefined {
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const out: ResponseFormat = { type: 'json_schema', name: format.name, schema: format.schema };
      if (format.strict != null) out.strict = format.strict;
      if (format.description) out.description = format.description;
      return out;
    }
  }
}

function reasoningToCore(reasoning: ReasoningParam): ThinkingConfig | undefined {
  const summary = reasoning.summary ?? reasoning.generate_summary;
  if (reasoning.effort == null && summary == null) return undefined;
  if (reasoning.effort === 'none') return { enabled: false };
  const effort = reasoning.effort === 'xhigh' ? 'high' : (reasoning.effort ?? 'medium');
  return { enabled: true, effort, includeThoughts: summary != null };
}
