/**
 * The zod schema of a Responses request (`POST /v1/responses`): what the live
 * API accepts, checked only where the gateway itself reads the value. `input`
 * items, `tools` and `tool_choice` are checked one by one in
 * families/responses/validate.ts (each by the schema its type selects), which
 * gives precise error paths. Unknown top-level keys are kept: the native
 * pass-through forwards them, translation names them as hints or refuses the
 * answer-changing ones (see families/responses/to-core-fields.ts).
 * Words the API keeps adding to (`include` values, efforts, summaries, service
 * tiers) are any string here.
 */
import { z } from 'zod';
import { toolChoiceSchema } from './schema-tools.js';
import { isWellFormedModelName, MAX_MODEL_NAME_LENGTH, MODEL_NAME_LENGTH_MESSAGE, modelNameIssue } from '../../core/model-name.js';
import { builtOnce } from '../../core/built-once.js';

const summaryMode = builtOnce(() => z.string({ error: 'must be a string such as "auto", "concise" or "detailed"' }));

const reasoningSchema = builtOnce(() =>
  z.looseObject({
    effort: z.string({ error: 'must be a string such as "low", "medium" or "high"' }).nullish(),
    summary: summaryMode().nullish(),
    /** Deprecated spelling of `summary`. */
    generate_summary: summaryMode().nullish(),
  }),
);

export const formatNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

export const textFormatSchema = builtOnce(() =>
  z.discriminatedUnion(
    'type',
    [
      z.looseObject({ type: z.literal('text') }),
      z.looseObject({
        type: z.literal('json_schema'),
        name: z.string({ error: 'is required' }).regex(formatNamePattern, {
          error: 'must be 1-64 characters of letters, digits, "_" or "-"',
        }),
        schema: z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }),
        description: z.string().nullish(),
        strict: z.boolean().nullish(),
      }),
      z.looseObject({ type: z.literal('json_object') }),
    ],
    { error: 'must be {"type": "text"}, {"type": "json_schema", …} or {"type": "json_object"}' },
  ),
);

const metadataSchema = builtOnce(() =>
  z
    .record(
      z.string().max(64, { error: 'metadata keys must be at most 64 characters' }),
      z.string({ error: 'metadata values must be strings' }).max(512, { error: 'metadata values must be at most 512 characters' }),
      { error: 'must be an object of string values' },
    )
    .refine((metadata) => Object.keys(metadata).length <= 16, { error: 'must have at most 16 pairs' }),
);

const unitRange = (max: number) =>
  z
    .number({ error: 'must be a number' })
    .gte(0, { error: `must be between 0 and ${max}` })
    .lte(max, { error: `must be between 0 and ${max}` });

export const responsesRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must not be empty' })
      .max(MAX_MODEL_NAME_LENGTH, { error: MODEL_NAME_LENGTH_MESSAGE })
      .refine(isWellFormedModelName, { error: modelNameIssue }),
    input: z.union([z.string(), z.array(z.looseObject({}), { error: 'items must be objects' })], {
      error: 'must be a string or an array of input items',
    }),
    include: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }).nullish(),
    instructions: z.string({ error: 'must be a string' }).nullish(),
    max_output_tokens: z.int({ error: 'must be an integer' }).gte(1, { error: 'must be at least 1' }).nullish(),
    metadata: metadataSchema().nullish(),
    parallel_tool_calls: z.boolean({ error: 'must be a boolean' }).nullish(),
    previous_response_id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).nullish(),
    reasoning: reasoningSchema().nullish(),
    service_tier: z.string({ error: 'must be a string' }).nullish(),
    store: z.boolean({ error: 'must be a boolean' }).nullish(),
    stream: z.boolean({ error: 'must be a boolean' }).nullish(),
    temperature: unitRange(2).nullish(),
    text: z.looseObject({ format: textFormatSchema().nullish(), verbosity: z.string().nullish() }).nullish(),
    tool_choice: toolChoiceSchema().nullish(),
    tools: z.array(z.looseObject({ type: z.string({ error: 'is required' }) }), { error: 'must be an array of tools' }).nullish(),
    top_p: unitRange(1).nullish(),
    truncation: z.enum(['auto', 'disabled'], { error: 'must be "auto" or "disabled"' }).nullish(),
    user: z.string({ error: 'must be a string' }).nullish(),
  }),
);

export type ResponsesRequest = z.output<ReturnType<typeof responsesRequestSchema>>;
export type TextFormatParam = z.output<ReturnType<typeof textFormatSchema>>;
export type ReasoningParam = z.output<ReturnType<typeof reasoningSchema>>;

/** A request body as the API takes it: what an upstream converter builds for an OpenAI Responses channel. */
export type ResponsesRequestBody = z.input<ReturnType<typeof responsesRequestSchema>>;
