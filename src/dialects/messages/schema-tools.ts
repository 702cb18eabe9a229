/**
 * Zod schemas of the Messages `tools` and `tool_choice` fields.
 *
 * A tool is either a custom tool (`type` absent or `custom`, described by a JSON
 * Schema) or a typed tool the provider runs itself: any other `type` word,
 * dated (`web_search_20250305`, `code_execution_20250825`…) or not
 * (`mcp_toolset`), since new ones keep appearing. Both keep any extra keys the
 * client sends (`cache_control`, `strict`, `defer_loading`, `input_examples`…).
 * Only what the gateway interprets is checked: names (unique, and what
 * tool_choice refers to) and a custom tool's `input_schema`.
 */
import { z } from 'zod';
import { unknownTypeMessage } from './schema-blocks.js';
import { builtOnce } from '../../core/built-once.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

export const customToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('custom').optional(),
    name: z.string().regex(toolNamePattern, {
      error: 'must be 1-64 characters of letters, digits, "_" or "-"',
    }),
    description: z.string().optional(),
    input_schema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }),
    strict: z.boolean().optional(),
    defer_loading: z.boolean().optional(),
  }),
);

const positiveInt = builtOnce(() => z.int().gt(0, { error: 'must be a positive integer' }));

export const typedToolSchema = builtOnce(() =>
  z
    .looseObject({
      // Aborting, so a custom tool's own errors are not hidden behind this branch's type mismatch.
      type: z.string({ error: 'must be a string' }).refine((type) => type !== 'custom' && type !== '', { error: 'must name a typed tool', abort: true }),
      // Optional: some typed tools are named by other keys (`mcp_toolset` has `mcp_server_name`).
      name: z.string().min(1, { error: 'must be non-empty' }).max(64, { error: 'must be at most 64 characters' }).optional(),
      display_width_px: positiveInt().optional(),
      display_height_px: positiveInt().optional(),
      display_number: z.int().gte(0, { error: 'must be a non-negative integer' }).nullish(),
    })
    .superRefine((tool, ctx) => {
      if (!tool.type.startsWith('computer_')) return;
      for (const key of ['display_width_px', 'display_height_px'] as const) {
        if (tool[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${tool.type} tools require ${key}` });
      }
    }),
);

export const toolSchema = builtOnce(() =>
  z.union([customToolSchema(), typedToolSchema()], {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      if (typeof issue.input !== 'object' || issue.input === null) return 'each tool must be an object';
      return 'must be a custom tool (with an input_schema) or a typed tool';
    },
  }),
);

const disableParallel = builtOnce(() => z.boolean().optional());

export const toolChoiceSchema = builtOnce(() =>
  z.discriminatedUnion(
    'type',
    [
      z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: disableParallel() }),
      z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: disableParallel() }),
      z.looseObject({
        type: z.literal('tool'),
        name: z.string().min(1, { error: 'tool_choice name must be non-empty' }),
        disable_parallel_tool_use: disableParallel(),
      }),
      z.looseObject({ type: z.literal('none') }),
    ],
    { error: unknownTypeMessage('tool_choice', ['auto', 'any', 'tool', 'none']) },
  ),
);

export type CustomTool = z.output<ReturnType<typeof customToolSchema>>;
export type TypedTool = z.output<ReturnType<typeof typedToolSchema>>;
export type Tool = z.output<ReturnType<typeof toolSchema>>;
export type ToolChoiceParam = z.output<ReturnType<typeof toolChoiceSchema>>;

export function isCustomTool(tool: Tool): tool is CustomTool {
  return tool.type === undefined || tool.type === 'custom';
}
