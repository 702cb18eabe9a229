/**
 * Zod schemas of the Responses `tools` and `tool_choice` fields. The tools the
 * spec lists are checked field by field, and so are the ones translation reads
 * (`namespace` groups and `custom` freeform tools, whose members become
 * function tools); tools of other types (newer hosted tools, `web_search`)
 * keep their shape: a native upstream runs them, the translation plan of any
 * other upstream maps or leaves them out.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';

export const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

export const functionToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('function'),
    name: z.string().regex(toolNamePattern, { error: 'must be 1-64 characters of letters, digits, "_" or "-"' }),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }).nullish(),
    strict: z.boolean().nullish(),
  }),
);

const comparisonFilter = builtOnce(() =>
  z.looseObject({
    key: z.string(),
    type: z.enum(['eq', 'ne', 'gt', 'gte', 'lt', 'lte'], { error: 'must be one of eq, ne, gt, gte, lt, lte' }),
    value: z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, number or boolean' }),
  }),
);

type Filter = z.infer<ReturnType<typeof comparisonFilter>> | { type: 'and' | 'or'; filters: Filter[] };

const filterSchema: () => z.ZodType<Filter> = builtOnce(() =>
  z.lazy(() =>
    z.union(
      [
        comparisonFilter(),
        z.looseObject({
          type: z.enum(['and', 'or']),
          filters: z.array(filterSchema()),
        }),
      ],
      { error: 'must be a comparison filter {key, type, value} or a compound filter {type: "and"|"or", filters}' },
    ),
  ),
);

export const fileSearchToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('file_search'),
    vector_store_ids: z.array(z.string(), { error: 'must be an array of vector store ids' }),
    filters: filterSchema().nullish(),
    max_num_results: z.int({ error: 'must be an integer' }).gte(1, { error: 'must be between 1 and 50' }).lte(50, { error: 'must be between 1 and 50' }).nullish(),
    ranking_options: z
      .looseObject({
        ranker: z.string().nullish(),
        score_threshold: z.number().gte(0, { error: 'must be between 0 and 1' }).lte(1, { error: 'must be between 0 and 1' }).nullish(),
      })
      .nullish(),
  }),
);

export const webSearchToolTypes = ['web_search_preview', 'web_search_preview_2025_03_11'] as const;

export const webSearchPreviewToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.enum(webSearchToolTypes),
    search_context_size: z.enum(['low', 'medium', 'high'], { error: 'must be "low", "medium" or "high"' }).nullish(),
    user_location: z
      .looseObject({
        type: z.literal('approximate'),
        city: z.string().nullish(),
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter ISO country code' })
          .nullish(),
        region: z.string().nullish(),
        timezone: z.string().nullish(),
      })
      .nullish(),
    domains: z.array(z.string()).nullish(),
  }),
);

export const computerToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('computer_use_preview'),
    display_height: z.int({ error: 'must be an integer' }).positive({ error: 'must be positive' }),
    display_width: z.int({ error: 'must be an integer' }).positive({ error: 'must be positive' }),
    environment: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  }),
);

/** A freeform tool: the model writes plain text (optionally to a grammar) instead of JSON arguments. */
export const customToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('custom'),
    name: z.string().regex(toolNamePattern, { error: 'must be 1-64 characters of letters, digits, "_" or "-"' }),
    description: z.string().nullish(),
    format: z.looseObject({ type: z.string({ error: 'must be "text" or "grammar"' }), definition: z.string().nullish(), syntax: z.string().nullish() }).nullish(),
  }),
);

/** A group of function and custom tools the model calls as `<namespace>` + `<name>`; members are checked in families/responses/validate.ts. */
export const namespaceToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('namespace'),
    name: z.string({ error: 'is required' }).min(1, { error: 'must not be empty' }),
    description: z.string().nullish(),
    tools: z.array(z.looseObject({ type: z.string({ error: 'is required' }) }), { error: 'must be an array of function or custom tools' }),
  }),
);

/** Tools a namespace may hold. */
export const namespaceMemberSchemas: () => Record<string, z.ZodType<Record<string, unknown>>> = builtOnce(() => ({
  function: functionToolSchema(),
  custom: customToolSchema(),
}));

export const otherToolSchema = builtOnce(() => z.looseObject({ type: z.string().min(1) }));

export const toolSchemas: () => Record<string, z.ZodType<Record<string, unknown>>> = builtOnce(() => ({
  function: functionToolSchema(),
  file_search: fileSearchToolSchema(),
  web_search_preview: webSearchPreviewToolSchema(),
  web_search_preview_2025_03_11: webSearchPreviewToolSchema(),
  computer_use_preview: computerToolSchema(),
  custom: customToolSchema(),
  namespace: namespaceToolSchema(),
}));

export const toolChoiceSchema = builtOnce(() =>
  z.union(
    [
      z.enum(['none', 'auto', 'required']),
      z.looseObject({ type: z.literal('function'), name: z.string().min(1, { error: 'must not be empty' }) }),
      // Hosted tools by type (the spec's three, and newer ones a native upstream may know), `custom` and `allowed_tools`.
      z.looseObject({ type: z.string().regex(/^(?!function$)[a-z][a-z0-9_]*$/) }),
    ],
    { error: 'must be "none", "auto", "required", {"type": "function", "name": …} or {"type": <hosted tool>}' },
  ),
);

export type FunctionToolParam = z.output<ReturnType<typeof functionToolSchema>>;
export type FileSearchToolParam = z.output<ReturnType<typeof fileSearchToolSchema>>;
export type WebSearchPreviewToolParam = z.output<ReturnType<typeof webSearchPreviewToolSchema>>;
export type ToolParam = Record<string, unknown> & { type: string };
export type ToolChoiceParam = z.output<ReturnType<typeof toolChoiceSchema>>;
