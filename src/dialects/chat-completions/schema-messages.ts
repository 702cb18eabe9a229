/**
 * Chat Completions messages, one schema per role, and their content parts.
 * Known part types are checked, inline media included (base64 that decodes,
 * image bytes of the declared type, as in the Responses family); an unknown
 * part type is kept (a native upstream may know it) and refused by name on a
 * translated path.
 */
import { z } from 'zod';
import { base64Problem } from '../../core/media.js';
import { checked, fileDataSchema, imageUrlSchema } from '../openai/media-fields.js';
import { builtOnce } from '../../core/built-once.js';

const base64Schema = checked((value) => base64Problem(value));

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const textPartSchema = builtOnce(() => z.looseObject({ type: z.literal('text'), text: z.string() }));

export const imagePartSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('image_url'),
    image_url: z.looseObject({ url: imageUrlSchema, detail: nullable(z.string()) }),
  }),
);

export const audioPartSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('input_audio'),
    input_audio: z.looseObject({ data: base64Schema, format: z.string().min(1) }),
  }),
);

export const filePartSchema = builtOnce(() =>
  z.looseObject({
    type: z.literal('file'),
    file: z
      .looseObject({ file_data: nullable(fileDataSchema), file_id: nullable(z.string()), filename: nullable(z.string()) })
      .refine((file) => file.file_data != null || file.file_id != null, 'file_data or file_id is required'),
  }),
);

export const refusalPartSchema = builtOnce(() => z.looseObject({ type: z.literal('refusal'), refusal: z.string() }));

/** Part schemas by type, per role. */
export const userPartSchemas = builtOnce(() => ({ text: textPartSchema(), image_url: imagePartSchema(), input_audio: audioPartSchema(), file: filePartSchema() }));
export const textOnlyPartSchemas = builtOnce(() => ({ text: textPartSchema() }));
export const assistantPartSchemas = builtOnce(() => ({ text: textPartSchema(), refusal: refusalPartSchema() }));

const anyParts = builtOnce(() => z.array(z.looseObject({ type: z.string().min(1) })));

export const toolCallSchema = builtOnce(() =>
  z.union([
    z.looseObject({
      id: z.string().min(1),
      type: z.literal('function'),
      function: z.looseObject({ name: z.string().min(1), arguments: z.string() }),
    }),
    z.looseObject({ id: z.string().min(1), type: z.literal('custom'), custom: z.looseObject({ name: z.string().min(1), input: z.string() }) }),
  ]),
);

export const messageSchemas = builtOnce(() => ({
  system: z.looseObject({ role: z.literal('system'), content: z.union([z.string(), anyParts()]), name: nullable(z.string()) }),
  developer: z.looseObject({ role: z.literal('developer'), content: z.union([z.string(), anyParts()]), name: nullable(z.string()) }),
  user: z.looseObject({ role: z.literal('user'), content: z.union([z.string(), anyParts()]), name: nullable(z.string()) }),
  assistant: z.looseObject({
    role: z.literal('assistant'),
    content: nullable(z.union([z.string(), anyParts()])),
    refusal: nullable(z.string()),
    name: nullable(z.string()),
    tool_calls: nullable(z.array(toolCallSchema())),
    function_call: nullable(z.looseObject({ name: z.string().min(1), arguments: z.string() })),
    /** The reasoning text compatible servers return (DeepSeek, vLLM); some clients send it back. */
    reasoning_content: nullable(z.string()),
    /** OpenRouter's reasoning entries (see families/chat-completions/reasoning-details.ts); entries of unknown types are kept for a native upstream. */
    reasoning_details: nullable(z.array(z.unknown())),
  }),
  tool: z.looseObject({ role: z.literal('tool'), content: z.union([z.string(), anyParts()]), tool_call_id: z.string().min(1) }),
  function: z.looseObject({ role: z.literal('function'), content: nullable(z.string()), name: z.string().min(1) }),
}));

export type Role = keyof ReturnType<typeof messageSchemas>;
export type ContentPartParam = { type: string; [key: string]: unknown };
export type SystemMessage = z.output<ReturnType<typeof messageSchemas>['system']>;
export type UserMessage = z.output<ReturnType<typeof messageSchemas>['user']>;
export type AssistantMessage = z.output<ReturnType<typeof messageSchemas>['assistant']>;
export type ToolMessage = z.output<ReturnType<typeof messageSchemas>['tool']>;
export type FunctionMessage = z.output<ReturnType<typeof messageSchemas>['function']>;
export type MessageParam = z.output<ReturnType<typeof messageSchemas>[Role]>;
export type ToolCallParam = z.output<ReturnType<typeof toolCallSchema>>;
