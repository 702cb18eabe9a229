/**
 * The Chat Completions request as the gateway validates it: the fields it
 * interprets, checked as the OpenAI API checks them (ranges, types), and
 * every other field kept (objects are loose), so a native upstream receives
 * what the client sent. Messages are checked per role in families/chat-completions/validate.ts.
 */
import { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { isWellFormedModelName, modelNameIssue } from '../../core/model-name.js';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const functionDefinitionSchema = builtOnce(() =>
  z.looseObject({
    name: z.string().min(1).max(256),
    description: nullable(z.string()),
    parameters: nullable(z.record(z.string(), z.unknown())),
    strict: nullable(z.boolean()),
  }),
);

export const functionToolSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('function'),
    function: functionDefinitionSchema(),
  }),
);

/** Any other tool type (`custom`, provider extensions): kept as sent, only its `type` checked. */
export const otherToolSchema = builtOnce(() => z.looseObject({ type: z.string().min(1) }));

const namedToolChoiceSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('function'),
    function: z.looseObject({ name: z.string().min(1) }),
  }),
);

export const toolChoiceSchema = builtOnce(() => z.union([z.enum(['none', 'auto', 'required']), namedToolChoiceSchema(), z.looseObject({ type: z.string().min(1) })]));

const jsonSchemaFormatSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().min(1).max(64),
      description: nullable(z.string()),
      schema: nullable(z.record(z.string(), z.unknown())),
      strict: nullable(z.boolean()),
    }),
  }),
);

export const responseFormatSchema = builtOnce(() => z.union([z.looseObject({ type: z.literal('text') }), z.looseObject({ type: z.literal('json_object') }), jsonSchemaFormatSchema()]));

const stopSchema = builtOnce(() => z.union([z.string(), z.array(z.string()).max(4)]));

export const chatCompletionsRequestSchema = builtOnce(() =>
  z.looseObject({
    model: z.string().min(1).refine(isWellFormedModelName, { error: modelNameIssue }),
    messages: z.array(z.looseObject({ role: z.string() })).min(1),
    tools: nullable(z.array(z.looseObject({ type: z.string().min(1) }))),
    tool_choice: nullable(toolChoiceSchema()),
    parallel_tool_calls: nullable(z.boolean()),
    response_format: nullable(responseFormatSchema()),
    max_tokens: nullable(z.number().int().min(1)),
    max_completion_tokens: nullable(z.number().int().min(1)),
    temperature: nullable(z.number().min(0).max(2)),
    top_p: nullable(z.number().min(0).max(1)),
    stop: nullable(stopSchema()),
    seed: nullable(z.number().int()),
    presence_penalty: nullable(z.number().min(-2).max(2)),
    frequency_penalty: nullable(z.number().min(-2).max(2)),
    logit_bias: nullable(z.record(z.string(), z.number().min(-100).max(100))),
    logprobs: nullable(z.boolean()),
    top_logprobs: nullable(z.number().int().min(0).max(20)),
    n: nullable(z.number().int().min(1).max(128)),
    reasoning_effort: nullable(z.string()),
    stream: nullable(z.boolean()),
    stream_options: nullable(z.looseObject({ include_usage: nullable(z.boolean()) })),
    user: nullable(z.string()),
    metadata: nullable(z.record(z.string(), z.string())),
    store: nullable(z.boolean()),
    modalities: nullable(z.array(z.string())),
    audio: nullable(z.looseObject({})),
    prediction: nullable(z.looseObject({})),
    web_search_options: nullable(z.looseObject({})),
    service_tier: nullable(z.string()),
    functions: nullable(z.array(functionDefinitionSchema())),
    function_call: nullable(z.union([z.enum(['none', 'auto']), z.looseObject({ name: z.string().min(1) })])),
  }),
);

export type ChatCompletionsRequest = z.output<ReturnType<typeof chatCompletionsRequestSchema>>;
export type FunctionToolParam = z.output<ReturnType<typeof functionToolSchema>>;
export type ResponseFormatParam = z.output<ReturnType<typeof responseFormatSchema>>;
export type ToolChoiceParam = z.output<ReturnType<typeof toolChoiceSchema>>;

/** A request body as the API takes it: what an upstream converter builds for an OpenAI-compatible chat channel. */
export type ChatCompletionsRequestBody = z.input<ReturnType<typeof chatCompletionsRequestSchema>>;
