/**
 * What translation does with the top-level fields it does not convert.
 *
 * - Fields that change the answer and only a native upstream honours are
 *   features, refused by name by every translating upstream: `background`
 *   (an answer fetched later), `conversation` (state held upstream), `prompt`
 *   (a template stored upstream), `top_logprobs` and the logprobs include
 *   (answers carrying log probabilities), `max_tool_calls` (a cap on hosted
 *   tool runs).
 * - Fields the gateway handles itself are neither: `store` (the gateway keeps
 *   its own store), `metadata` (echoed), `include: reasoning.encrypted_content`
 *   (the gateway writes reasoning items), `previous_response_id`, `truncation`,
 *   and the prompt cache's `prompt_cache_key` and `prompt_cache_retention`
 *   (`ChatRequest.cache`: each upstream uses them with its own mechanism).
 * - Everything else is a hint: it cannot change the answer (cache keys, client
 *   metadata, safety identifiers, service tiers, verbosity, context
 *   management, stream options) or is unknown to the gateway; hints are named
 *   in the translation header, and strict translation refuses them.
 */
import type { PromptCache } from '../../core/cache-intent.js';
import type { ValidatedRequest } from './validate.js';

/** Top-level fields to-core converts or the gateway handles. */
const handledFields = new Set([
  'model',
  'input',
  'include',
  'instructions',
  'max_output_tokens',
  'metadata',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning',
  'store',
  'stream',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_p',
  'truncation',
  'user',
]);

/** Answer-changing fields, by name; their values are checked below. */
const answerChangingFields = new Set(['background', 'conversation', 'prompt', 'top_logprobs', 'max_tool_calls']);

const handledIncludes = new Set(['reasoning.encrypted_content']);
const answerChangingIncludes = new Set(['message.output_text.logprobs']);

/** Keys of `reasoning` and `text` that to-core reads. */
const readReasoningKeys = new Set(['effort', 'summary', 'generate_summary']);
const readTextKeys = new Set(['format']);

export interface FieldTreatment {
  features: Record<string, unknown>;
  hints: Record<string, unknown>;
}

export function classifyFields(req: ValidatedRequest): FieldTreatment {
  const out: FieldTreatment = { features: {}, hints: {} };
  for (const [key, value] of Object.entries(req)) {
    if (!isSet(value) || handledFields.has(key)) continue;
    if (answerChangingFields.has(key)) {
      if (key === 'top_logprobs' && !(typeof value === 'number' && value > 0)) continue;
      out.features[key] = value;
    } else out.hints[key] = value;
  }
  for (const value of req.include ?? []) {
    if (handledIncludes.has(value)) continue;
    if (answerChangingIncludes.has(value)) out.features[`include ${value}`] = true;
    else out.hints[`include ${value}`] = true;
  }
  nestedHints(out.hints, 'reasoning', req.reasoning, readReasoningKeys);
  nestedHints(out.hints, 'text', req.text, readTextKeys);
  return out;
}

/** The client's cache key and retention, when it gave them. */
export function promptCacheOf(req: ValidatedRequest): PromptCache | undefined {
  const fields = req as { prompt_cache_key?: unknown; prompt_cache_retention?: unknown };
  const cache: PromptCache = {};
  if (typeof fields.prompt_cache_key === 'string' && fields.prompt_cache_key !== '') cache.key = fields.prompt_cache_key;
  if (typeof fields.prompt_cache_retention === 'string') cache.retention = fields.prompt_cache_retention;
  return Object.keys(cache).length > 0 ? cache : undefined;
}

function nestedHints(hints: Record<string, unknown>, field: string, value: Record<string, unknown> | null | undefined, read: ReadonlySet<string>): void {
  for (const [key, inner] of Object.entries(value ?? {})) if (!read.has(key) && isSet(inner)) hints[`${field}.${key}`] = inner;
}

/** Null, absent and `false` mean "not asked for". */
function isSet(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false;
}
