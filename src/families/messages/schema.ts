/**
 * The zod schema of a Messages request (`POST /v1/messages`), to the spec's
 * Family C rules plus what the official clients really send (a `system` array,
 * `{type:"adaptive"}` thinking, extra tool keys). Unknown body keys are dropped,
 * unknown content block types are rejected. Cross-field rules live in validate.ts.
 */
import { z } from 'zod';
import { contentBlockSchema, textBlockSchema, unknownTypeMessage } from './schema-blocks.js';
import { toolChoiceSchema, toolSchema } from './schema-tools.js';

export * from './schema-blocks.js';
export * from './schema-tools.js';

const unitInterval = () =>
  z
    .number({ error: 'must be a number' })
    .gt(0, { error: 'must be above 0 and below 1' })
    .lt(1, { error: 'must be above 0 and below 1' });

export const messageParamSchema = z.object({
  role: z.enum(['user', 'assistant'], {
    error: (issue) =>
      issue.input === 'system'
        ? 'there is no "system" role in messages; use the top-level system parameter'
        : 'must be "user" or "assistant"',
  }),
  content: z.union([z.string(), z.array(contentBlockSchema)], {
    error: 'must be a string or an array of content blocks',
  }),
});

export const thinkingParamSchema = z.discriminatedUnion(
  'type',
  [
    z.looseObject({
      type: z.literal('enabled'),
      budget_tokens: z
        .int({ error: 'must be an integer' })
        .gte(1024, { error: 'must be at least 1024' }),
    }),
    z.looseObject({ type: z.literal('disabled') }),
    // Sent by newer clients: the model picks its own budget.
    z.looseObject({ type: z.literal('adaptive') }),
  ],
  { error: unknownTypeMessage('thinking', ['enabled', 'disabled', 'adaptive']) },
);

export const messagesRequestSchema = z.object({
  model: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must be 1 to 256 characters' })
    .max(256, { error: 'must be 1 to 256 characters' }),
  max_tokens: z.int({ error: 'must be an integer' }).gt(1, { error: 'must be greater than 1' }),
  messages: z.array(messageParamSchema, { error: 'must be an array' }).min(1, {
    error: 'must hold at least one message',
  }),
  system: z
    .union([z.string(), z.array(textBlockSchema)], { error: 'must be a string or an array of text blocks' })
    .nullish(),
  metadata: z
    .object({
      user_id: z.string().max(256, { error: 'must be at most 256 characters' }).nullish(),
    })
    .nullish(),
  stop_sequences: z.array(z.string()).nullish(),
  stream: z.boolean().nullish(),
  temperature: unitInterval().nullish(),
  top_p: unitInterval().nullish(),
  top_k: z.int({ error: 'must be an integer' }).gt(0, { error: 'must be greater than 0' }).nullish(),
  thinking: thinkingParamSchema.nullish(),
  tool_choice: toolChoiceSchema.nullish(),
  tools: z.array(toolSchema).nullish(),
});

export type MessageParam = z.output<typeof messageParamSchema>;
export type ThinkingParam = z.output<typeof thinkingParamSchema>;
export type MessagesRequest = z.output<typeof messagesRequestSchema>;
