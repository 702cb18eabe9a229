/**
 * Zod schemas of a request's `Content` and `Part` (after wire-names.ts renamed
 * every key to lowerCamel). A part holds exactly one kind of data; the rules
 * between parts (which role may hold which part) are the family's
 * (families/generate/validate-rules.ts).
 */
import { z } from 'zod';
import { base64Problem, imageTypeProblem } from '../../core/media.js';
import { codeLanguages, codeOutcomes, contentRoles, mediaKind, mediaResolutions, protoEnum } from './schema-enums.js';
import { builtOnce } from '../../core/built-once.js';
import { answerFunctionCallSchema } from './schema-response.js';

const base64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

const base64String = (what: string) => z.string({ error: 'must be a base64 string' }).regex(base64, { error: `${what}: Base64 decoding failed` });

const mimeType = builtOnce(() => z.string({ error: 'must be a string' }).min(1, { error: 'mime_type is required' }));

export const blobSchema = builtOnce(() =>
  z
    .object({
      mimeType: mimeType().refine((type) => mediaKind(type) !== undefined, {
        error: (issue) => `Unsupported MIME type: ${String(issue.input)}`,
      }),
      data: base64String('inline_data.data').min(1, { error: 'data is required' }),
    })
    .superRefine((blob, ctx) => {
      // The dialect takes standard and URL-safe base64; image types are checked against their bytes.
      const problem = base64Problem(blob.data, { urlSafe: true }) ?? imageTypeProblem(blob.data, blob.mimeType);
      if (problem) ctx.addIssue({ code: 'custom', path: ['data'], message: `inline_data.data ${problem}` });
    }),
);

export const fileDataSchema = builtOnce(() =>
  z.object({
    mimeType: mimeType(),
    fileUri: z.string({ error: 'must be a string' }).min(1, { error: 'file_uri is required' }),
    displayName: z.string().optional(),
  }),
);

const struct = (what: string) => z.record(z.string(), z.unknown(), { error: `${what} must be a JSON object` });

/** A model's function call sent back in the history: the answer's shape, with a name and object arguments required of the client. */
export const functionCallSchema = builtOnce(() =>
  answerFunctionCallSchema().extend({
    name: z.string({ error: 'name is required' }).min(1, { error: 'name is required' }),
    args: struct('args').optional(),
    // Pieces of a streamed call are taken back as they are.
    partialArgs: z.unknown().optional(),
  }),
);

export const functionResponseSchema = builtOnce(() =>
  z.object({
    id: z.string().optional(),
    name: z.string({ error: 'name is required' }).min(1, { error: 'name is required' }),
    response: struct('response'),
    parts: z.array(z.object({ inlineData: blobSchema().optional(), fileData: fileDataSchema().optional() })).optional(),
    willContinue: z.boolean().optional(),
    scheduling: z.string().optional(),
  }),
);

export const executableCodeSchema = builtOnce(() =>
  z.object({
    id: z.string().optional(),
    language: protoEnum(codeLanguages),
    code: z.string({ error: 'code is required' }),
  }),
);

export const codeExecutionResultSchema = builtOnce(() =>
  z.object({
    id: z.string().optional(),
    outcome: protoEnum(codeOutcomes),
    output: z.string().optional(),
  }),
);

/** The `data` oneof of a Part: exactly one of these must be set. */
export const partDataFields = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'] as const;

export const partSchema = builtOnce(() =>
  z
    .object({
      text: z.string({ error: 'must be a string' }).optional(),
      inlineData: blobSchema().optional(),
      fileData: fileDataSchema().optional(),
      functionCall: functionCallSchema().optional(),
      functionResponse: functionResponseSchema().optional(),
      executableCode: executableCodeSchema().optional(),
      codeExecutionResult: codeExecutionResultSchema().optional(),
      // Server-side tool invocations, sent back by clients of the native service.
      toolCall: struct('tool_call').optional(),
      toolResponse: struct('tool_response').optional(),
      thought: z.boolean({ error: 'must be a boolean' }).optional(),
      thoughtSignature: base64String('thought_signature').optional(),
      videoMetadata: z.object({ startOffset: z.string().optional(), endOffset: z.string().optional(), fps: z.number().optional() }).optional(),
      partMetadata: struct('part_metadata').optional(),
      mediaResolution: z.union([protoEnum(mediaResolutions), z.looseObject({})]).optional(),
    })
    .superRefine((part, ctx) => {
      const set = partDataFields.filter((field) => part[field] !== undefined);
      if (set.length === 0 && part.thoughtSignature === undefined) {
        ctx.addIssue({ code: 'custom', message: "required oneof field 'data' must have one initialized field" });
      } else if (set.length > 1) {
        ctx.addIssue({ code: 'custom', message: `a part holds one kind of data, but this one sets ${set.join(' and ')}` });
      }
    }),
);

export const contentSchema = builtOnce(() =>
  z.object({
    parts: z.array(partSchema(), { error: 'parts must be an array' }).min(1, { error: 'contents.parts must not be empty' }),
    role: z.union([z.literal(''), protoEnum(contentRoles)], { error: `role must be one of ${contentRoles.join(', ')}` }).optional(),
  }),
);

export type Blob = z.output<ReturnType<typeof blobSchema>>;
export type FileData = z.output<ReturnType<typeof fileDataSchema>>;
export type Part = z.output<ReturnType<typeof partSchema>>;
export type Content = z.output<ReturnType<typeof contentSchema>>;
export type FunctionResponse = z.output<ReturnType<typeof functionResponseSchema>>;
