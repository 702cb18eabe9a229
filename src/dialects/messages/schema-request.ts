/**
 * The zod schema of a Messages request (`POST /v1/messages`): the live API's
 * superset, as real clients send it (Claude Code: `role: "system"` messages,
 * adaptive thinking with `display`, `output_config`, `context_management`,
 * tools with `defer_loading`…). Only what the gateway interprets is validated;
 * unknown body keys are kept (they go upstream untouched on the pass-through
 * path, and to-core names them as hints). Cross-field rules are the family's
 * (families/messages/validate.ts).
 */
import { z } from 'zod';
import { contentBlockSchema, textBlockSchema } from './schema-blocks.js';
import { toolChoiceSchema, toolSchema } from './schema-tools.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';
import { builtOnce } from '../../core/built-once.js';

const unitInterval = () => z.number({ error: 'must be a number' }).gt(0, { error: 'must be above 0 and below 1' }).lt(1, { error: 'must be above 0 and below 1' });

export const messageParamSchema = builtOnce(() =>
  z.object({
    // `system` messages are instructions placed inside the conversation (text only, checked in validate.ts).
    role: z.enum(['user', 'assistant', 'system'], { error: 'must be "user", "assistant" or "system"' }),
    content: z.union([z.string(), z.array(contentBlockSchema())], {
      error: 'must be a string or an array of content blocks',
    }),
  }),
);

const knownThinkingSchema = builtOnce(() =>
  z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('enabled'),
      budget_tokens: z.int({ error: 'must be an integer' }).gte(1024, { error: 'must be at least 1024' }),
    }),
    z.looseObject({ type: z.literal('disabled') }),
    // The model picks its own budget.
    z.looseObject({ type: z.literal('adaptive') }),
  ]),
);

const knownThinkingTypes = ['enabled', 'disabled', 'adaptive'];

/** Known thinking types are validated; newer ones (`between_tools`…) pass as loose objects. */
export const thinkingParamSchema = builtOnce(() =>
  z.union([knownThinkingSchema(), z.looseObject({ type: z.string().refine((type) => !knownThinkingTypes.includes(type), { abort: true }) })], {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      if (typeof issue.input !== 'object' || issue.input === null) return 'must be an object';
      return (issue.input as { type?: unknown }).type === undefined ? 'thinking type is required' : 'thinking type must be a string';
    },
  }),
);

/** Effort words of `output_config.effort`; other words are accepted and left to the upstream. */
export const outputEffortSchema = builtOnce(() => z.string({ error: 'must be a string' }));

export const outputConfigSchema = builtOnce(() =>
  z.looseObject({
    effort: outputEffortSchema().nullish(),
    format: z
      .looseObject({
        type: z.literal('json_schema', { error: 'must be "json_schema"' }),
        schema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }),
      })
      .nullish(),
  }),
);

const jsonObject = (what: string) => z.record(z.string(), z.unknown(), { error: `${what} must be an object` });

export const messagesRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must be 1 to 256 characters' })
      .max(256, { error: 'must be 1 to 256 characters' })
      .refine(isWellFormedModelName, { error: modelNameIssue }),
    max_tokens: z.int({ error: 'must be an integer' }).gt(1, { error: 'must be greater than 1' }),
    messages: z.array(messageParamSchema(), { error: 'must be an array' }).min(1, {
      error: 'must hold at least one message',
    }),
    system: z.union([z.string(), z.array(textBlockSchema())], { error: 'must be a string or an array of text blocks' }).nullish(),
    metadata: z
      .looseObject({
        user_id: z.string().max(256, { error: 'must be at most 256 characters' }).nullish(),
      })
      .nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    stream: z.boolean().nullish(),
    temperature: unitInterval().nullish(),
    top_p: unitInterval().nullish(),
    top_k: z.int({ error: 'must be an integer' }).gt(0, { error: 'must be greater than 0' }).nullish(),
    thinking: thinkingParamSchema().nullish(),
    tool_choice: toolChoiceSchema().nullish(),
    tools: z.array(toolSchema()).nullish(),
    output_config: outputConfigSchema().nullish(),
    context_management: jsonObject('context_management').nullish(),
    mcp_servers: z.array(jsonObject('each MCP server'), { error: 'must be an array' }).nullish(),
  }),
);

export type MessageParam = z.output<ReturnType<typeof messageParamSchema>>;
export type ThinkingParam = z.output<ReturnType<typeof thinkingParamSchema>>;
export type OutputConfig = z.output<ReturnType<typeof outputConfigSchema>>;
export type MessagesRequest = z.output<ReturnType<typeof messagesRequestSchema>>;

/** A request body as the API takes it: what an upstream converter builds for an Anthropic channel. */
export type MessagesRequestBody = z.input<ReturnType<typeof messagesRequestSchema>>;
