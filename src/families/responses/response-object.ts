/**
 * The response object around the output: the request's settings echoed back
 * with the defaults the spec names (tools with `strict`, `search_context_size`,
 * `ranking_options`; `service_tier` only when the request set it), the status
 * that follows from the finish reason, and the usage in this dialect's terms.
 */
import type { FinishReason, Usage } from '../../core/chat.js';
import type { ToolParam } from '../../dialects/responses/schema-tools.js';
import type { ValidatedRequest } from './validate.js';
import type { ResponseObject, ResponseStatus, RenderedResponsesUsage } from '../../dialects/responses/wire.js';

export interface ResponseIdentity {
  id: string;
  /** Unix seconds. */
  createdAt: number;
}

export function baseResponse(identity: ResponseIdentity, req: ValidatedRequest): ResponseObject {
  const response: ResponseObject = {
    id: identity.id,
    object: 'response',
    created_at: identity.createdAt,
    status: 'in_progress',
    background: false,
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: req.instructions ?? null,
    max_output_tokens: req.max_output_tokens ?? null,
    model: req.model,
    output: [],
    parallel_tool_calls: req.parallel_tool_calls ?? true,
    previous_response_id: req.previous_response_id ?? null,
    reasoning: { effort: req.reasoning?.effort ?? null, summary: req.reasoning?.summary ?? req.reasoning?.generate_summary ?? null },
    store: req.store ?? true,
    temperature: req.temperature ?? 1,
    text: { format: echoFormat(req) },
    tool_choice: req.tool_choice ?? 'auto',
    tools: (req.tools ?? []).map(echoTool),
    top_p: req.top_p ?? 1,
    truncation: req.truncation ?? 'disabled',
    usage: null,
    user: req.user ?? null,
    metadata: req.metadata ?? {},
  };
  if (req.service_tier != null) response.service_tier = req.service_tier;
  if (req.text?.verbosity) response.text.verbosity = req.text.verbosity;
  return response;
}

function echoFormat(req: ValidatedRequest): Record<string, unknown> {
  const format = req.text?.format;
  if (format?.type !== 'json_schema') return format ?? { type: 'text' };
  const { description, ...rest } = format;
  return description == null ? { ...rest, strict: format.strict ?? false } : { ...rest, description, strict: format.strict ?? false };
}

export function echoTool(tool: ToolParam): Record<string, unknown> {
  switch (tool.type) {
    case 'function':
      return { ...tool, description: tool.description ?? null, parameters: tool.parameters ?? null, strict: tool.strict ?? true };
    case 'file_search':
      return {
        ...tool,
        filters: tool.filters ?? null,
        ranking_options: { ranker: 'auto', score_threshold: 0, ...dropNulls(tool.ranking_options) },
      };
    case 'web_search_preview':
    case 'web_search_preview_2025_03_11':
      return { ...tool, search_context_size: tool.search_context_size ?? 'medium', user_location: tool.user_location ?? null };
    default:
      return tool;
  }
}

function dropNulls(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null && entry !== undefined));
}

/**
 * Internal input tokens exclude cache reads and writes; this dialect's
 * `input_tokens` include them, with the cached share broken out. Its
 * `output_tokens` include the reasoning tokens, so they are never fewer.
 */
export function renderUsage(usage: Usage): RenderedResponsesUsage {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const reasoning = usage.reasoningTokens ?? 0;
  const output = Math.max(usage.outputTokens, reasoning);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

export interface Outcome {
  status: ResponseStatus;
  incomplete: ResponseObject['incomplete_details'];
  error: ResponseObject['error'];
}

export function outcomeOf(reason: FinishReason): Outcome {
  switch (reason) {
    case 'length':
      return { status: 'incomplete', incomplete: { reason: 'max_output_tokens' }, error: null };
    case 'content_filter':
      return { status: 'incomplete', incomplete: { reason: 'content_filter' }, error: null };
    case 'error':
      return {
        status: 'failed',
        incomplete: null,
        error: { code: 'server_error', message: 'The upstream model stopped generating because of an error.' },
      };
    default:
      return { status: 'completed', incomplete: null, error: null };
  }
}

/** Completes the object in place: status, details, usage and the completion time. */
export function finishResponse(response: ResponseObject, reason: FinishReason, usage: Usage): ResponseObject {
  const outcome = outcomeOf(reason);
  response.status = outcome.status;
  response.incomplete_details = outcome.incomplete;
  response.error = outcome.error;
  response.usage = renderUsage(usage);
  if (outcome.status === 'completed') response.completed_at = Math.floor(Date.now() / 1000);
  return response;
}
