/**
 * Zod schemas of the Responses input items translation reads: messages,
 * output items sent back as input (function and custom tool calls, reasoning),
 * tool outputs, item references and `additional_tools` (tools added in the
 * conversation). Items of other types are kept as they are: a native upstream
 * understands them; translation drops records of hosted tool runs and refuses
 * the rest by name (see families/responses/to-core-items.ts).
 */
import { z } from 'zod';
import { inputFileSchema, inputImageSchema, inputTextSchema, outputPartSchemas, inputPartSchemas } from './schema-content.js';
import { builtOnce } from '../../core/built-once.js';

const itemStatus = builtOnce(() =>
  z.enum(['in_progress', 'completed', 'incomplete'], {
    error: 'must be "in_progress", "completed" or "incomplete"',
  }),
);

const nonEmpty = (what: string) => z.string({ error: 'must be a string' }).min(1, { error: `${what} must not be empty` });

export const messageRoles = ['user', 'assistant', 'system', 'developer'] as const;

export const messageItemSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('message').optional(),
    role: z.enum(messageRoles, { error: 'must be "user", "assistant", "system" or "developer"' }),
    // Each part is checked against its role's part types in families/responses/validate.ts.
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))], {
      error: 'must be a string or an array of content parts',
    }),
    id: z.string().nullish(),
    status: itemStatus().nullish(),
  }),
);

export const functionCallSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('function_call'),
    call_id: nonEmpty('call_id'),
    name: nonEmpty('name'),
    /** Set when the function belongs to a `namespace` tool. */
    namespace: z.string().nullish(),
    arguments: z.string({ error: 'must be a JSON string' }),
    id: z.string().nullish(),
    status: itemStatus().nullish(),
  }),
);

const toolOutputPart = builtOnce(() =>
  z.discriminatedUnion('type', [inputTextSchema(), inputImageSchema(), inputFileSchema()], {
    error: 'must be an input_text, input_image or input_file part',
  }),
);

export const functionCallOutputSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('function_call_output'),
    call_id: nonEmpty('call_id'),
    output: z.union([z.string(), z.array(toolOutputPart())], { error: 'must be a string or an array of content parts' }),
    id: z.string().nullish(),
    status: itemStatus().nullish(),
  }),
);

/** A call of a `custom` (freeform) tool: its input is plain text. */
export const customToolCallSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('custom_tool_call'),
    call_id: nonEmpty('call_id'),
    name: nonEmpty('name'),
    namespace: z.string().nullish(),
    input: z.string({ error: 'must be a string' }),
    id: z.string().nullish(),
  }),
);

export const customToolCallOutputSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('custom_tool_call_output'),
    call_id: nonEmpty('call_id'),
    output: z.union([z.string(), z.array(toolOutputPart())], { error: 'must be a string or an array of content parts' }),
    id: z.string().nullish(),
  }),
);

/** Tools offered from this point of the conversation on; each tool is checked like a `tools` entry in families/responses/validate.ts. */
export const additionalToolsSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('additional_tools'),
    tools: z.array(z.looseObject({ type: z.string({ error: 'is required' }) }), { error: 'must be an array of tools' }),
  }),
);

export const reasoningItemSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('reasoning'),
    id: z.string().nullish(),
    summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() }), {
      error: 'must be an array of summary_text parts',
    }),
    encrypted_content: z.string().nullish(),
    status: itemStatus().nullish(),
  }),
);

const safetyCheck = builtOnce(() => z.looseObject({ id: z.string(), code: z.string().nullish(), message: z.string().nullish() }));

export const computerCallSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('computer_call'),
    id: z.string(),
    call_id: nonEmpty('call_id'),
    // Action kinds grow with the tool; the gateway never reads them.
    action: z.looseObject({ type: z.string({ error: 'must be a string' }) }),
    pending_safety_checks: z.array(safetyCheck()),
    status: itemStatus(),
  }),
);

export const computerCallOutputSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('computer_call_output'),
    call_id: nonEmpty('call_id'),
    output: z
      .looseObject({
        type: z.literal('computer_screenshot'),
        image_url: z.string().nullish(),
        file_id: z.string().nullish(),
      })
      .refine((output) => output.image_url != null || output.file_id != null, {
        error: 'a computer_screenshot needs an image_url or a file_id',
      }),
    acknowledged_safety_checks: z.array(safetyCheck()).nullish(),
    id: z.string().nullish(),
    status: itemStatus().nullish(),
  }),
);

export const webSearchCallSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('web_search_call'),
    id: nonEmpty('id'),
    status: z.string(),
  }),
);

export const fileSearchCallSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('file_search_call'),
    id: nonEmpty('id'),
    status: z.enum(['in_progress', 'searching', 'completed', 'incomplete', 'failed'], {
      error: 'must be "in_progress", "searching", "completed", "incomplete" or "failed"',
    }),
    queries: z.array(z.string()),
    results: z.array(z.looseObject({})).nullish(),
  }),
);

export const itemReferenceSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('item_reference').nullish(),
    id: nonEmpty('id'),
  }),
);

/** Items of a type not listed here: only a `type` word is required. */
export const otherItemSchema = builtOnce(() => z.looseObject({ type: z.string().min(1) }));

export const itemSchemas = builtOnce(
  () =>
    ({
      message: messageItemSchema(),
      function_call: functionCallSchema(),
      function_call_output: functionCallOutputSchema(),
      custom_tool_call: customToolCallSchema(),
      custom_tool_call_output: customToolCallOutputSchema(),
      additional_tools: additionalToolsSchema(),
      reasoning: reasoningItemSchema(),
      computer_call: computerCallSchema(),
      computer_call_output: computerCallOutputSchema(),
      web_search_call: webSearchCallSchema(),
      file_search_call: fileSearchCallSchema(),
      item_reference: itemReferenceSchema(),
    }) as const,
);

export { inputPartSchemas, outputPartSchemas };

export type MessageItem = z.output<ReturnType<typeof messageItemSchema>>;
export type FunctionCallItem = z.output<ReturnType<typeof functionCallSchema>>;
/** A `function_call_output` input item: the result the client sends back (`FunctionCallOutputItem` in schema-response.ts is the call itself, as an output item). */
export type FunctionCallResultItem = z.output<ReturnType<typeof functionCallOutputSchema>>;
export type ReasoningItem = z.output<ReturnType<typeof reasoningItemSchema>>;
export type CustomToolCallItem = z.output<ReturnType<typeof customToolCallSchema>>;
/** A `custom_tool_call_output` input item. */
export type CustomToolCallResultItem = z.output<ReturnType<typeof customToolCallOutputSchema>>;
export type ComputerCallItem = z.output<ReturnType<typeof computerCallSchema>>;
export type ComputerCallOutputItem = z.output<ReturnType<typeof computerCallOutputSchema>>;
export type ItemReference = z.output<ReturnType<typeof itemReferenceSchema>>;

/** A validated input item: the known shapes, or an item of another type kept as it came. */
export type InputItem = Record<string, unknown> & { type?: string | null };

/**
 * The item type a client meant: its `type`, else `message` when it has a
 * `role`, else `item_reference` when it has only an `id`.
 */
export function itemKind(item: Record<string, unknown>): string | undefined {
  if (typeof item.type === 'string') return item.type;
  if (item.type !== undefined && item.type !== null) return undefined;
  if ('role' in item) return 'message';
  if ('id' in item) return 'item_reference';
  return undefined;
}
