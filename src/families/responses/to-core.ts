/**
 * Converts a validated Responses request (with the conversation it continues)
 * into the internal ChatRequest, for upstreams that do not speak the dialect.
 *
 * Choices worth knowing:
 * - `instructions` come first in the system prompt, then the system and
 *   developer messages that open the conversation; the instructions of
 *   earlier turns are not carried over (as the spec says).
 * - Tools (with `additional_tools` items) are converted in to-core-tools.ts;
 *   their flat names are kept in `ToolNames` so the answer can be rendered
 *   with the client's own names.
 * - Top-level fields become features or hints as to-core-fields.ts decides;
 *   `prompt_cache_key` and `prompt_cache_retention` become `ChatRequest.cache`.
 * - A `compaction_trigger` item makes it the summarising request of
 *   compaction.ts.
 */
import type { ChatRequest, ResponseFormat, ThinkingConfig } from '../../core/chat.js';
import type { SourcedItem } from './conversation.js';
import type { ReasoningParam, TextFormatParam } from '../../dialects/responses/schema-request.js';
import type { ToolParam } from '../../dialects/responses/schema-tools.js';
import { classifyFields, promptCacheOf } from './to-core-fields.js';
import { itemsToCore, type SummaryOpener } from './to-core-items.js';
import { asksForCompaction, summarisingRequest } from './compaction.js';
import { toolChoiceToCore, toolsToCore } from './to-core-tools.js';
import { ToolNames } from './tool-names.js';
import { applyTruncation } from './truncation.js';
import type { ValidatedRequest } from './validate.js';

export interface ToCoreOptions {
  /** The model's context window in tokens, when known. */
  contextWindow?: number;
  /** Filled with the flat names given to the tools, for rendering the answer. */
  toolNames?: ToolNames;
  /** Opens the compaction items the gateway sealed on earlier turns (see compaction.ts). */
  openSummary?: SummaryOpener;
}

export function responsesToCore(req: ValidatedRequest, items: readonly SourcedItem[], options: ToCoreOptions = {}): ChatRequest {
  const names = options.toolNames ?? new ToolNames();
  const additional = items
    .map(({ item }) => item)
    .filter((item) => item.type === 'additional_tools')
    .map((item) => item.tools as ToolParam[]);
  let tools = toolsToCore([req.tools ?? [], ...additional], names);
  const conversation = itemsToCore(items, names, options.openSummary);
  const out: ChatRequest = { model: req.model, messages: conversation.messages, stream: req.stream ?? false };
  const system = [req.instructions ?? '', ...conversation.system].filter((text) => text !== '').join('\n\n');
  if (system) out.system = system;
  if (req.max_output_tokens != null) out.maxTokens = req.max_output_tokens;
  if (req.temperature != null) out.temperature = req.temperature;
  if (req.top_p != null) out.topP = req.top_p;
  if (req.tool_choice != null) {
    const chosen = toolChoiceToCore(req.tool_choice, tools, names);
    out.toolChoice = chosen.choice;
    tools = chosen.tools;
  }
  if (tools.length > 0) out.tools = tools;
  if (req.parallel_tool_calls === false) out.parallelToolCalls = false;
  const format = req.text?.format ? formatToCore(req.text.format) : undefined;
  if (format) out.responseFormat = format;
  const thinking = req.reasoning ? reasoningToCore(req.reasoning) : undefined;
  if (thinking) out.thinking = thinking;
  if (req.user) out.user = req.user;
  const fields = classifyFields(req);
  const cache = promptCacheOf(req);
  if (cache) out.cache = cache;
  const features = { ...conversation.features, ...fields.features };
  const hints = { ...conversation.hints, ...fields.hints };
  if (Object.keys(features).length > 0) out.features = { responses: features };
  if (Object.keys(hints).length > 0) out.hints = hints;
  applyTruncation(out, options.contextWindow, req.truncation ?? 'disabled');
  // A compaction asked of an upstream that cannot compact: it is asked for a summary instead.
  return asksForCompaction(items) ? summarisingRequest(out) : out;
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

const efforts: Record<string, ThinkingConfig['effort']> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'high', max: 'high' };

/** Effort words beyond the internal four go to the nearest one; an unknown word counts as the default, medium. */
function reasoningToCore(reasoning: ReasoningParam): ThinkingConfig | undefined {
  const summary = reasoning.summary ?? reasoning.generate_summary;
  if (reasoning.effort == null && summary == null) return undefined;
  if (reasoning.effort === 'none') return { enabled: false };
  const effort = (reasoning.effort != null && efforts[reasoning.effort]) || 'medium';
  return { enabled: true, effort, includeThoughts: summary != null };
}
