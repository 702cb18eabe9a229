/**
 * The zod schema of a GenerateContent request body (after wire-names.ts):
 * `contents` as an array or a single Content, tools, tool config, safety
 * settings, system instruction, generation config, cached content, and the
 * few newer top-level fields current clients send.
 */
import { z } from 'zod';
import { contentSchema } from './schema-content.js';
import { generationConfigSchema, safetySettingSchema } from './schema-config.js';
import { toolConfigSchema, toolSchema } from './schema-tools.js';
import { builtOnce } from '../../core/built-once.js';
import { asIsWhen } from '../../core/accept-as-is.js';

export const generateRequestSchema = builtOnce(() =>
  z.object({
    /** The path names the model; a body `model` is tolerated and ignored, as the service does. */
    model: z.string().optional(),
    contents: asIsWhen(
      z
        .union([z.array(contentSchema()), contentSchema()], { error: 'contents must be an array of Content objects or one Content' })
        .transform((contents) => (Array.isArray(contents) ? contents : [contents]))
        .refine((contents) => contents.length > 0, { error: 'contents is not specified' }),
      Array.isArray,
    ),
    tools: z.array(toolSchema(), { error: 'must be an array' }).optional(),
    toolConfig: toolConfigSchema().optional(),
    safetySettings: z.array(safetySettingSchema(), { error: 'must be an array' }).optional(),
    systemInstruction: contentSchema().optional(),
    generationConfig: generationConfigSchema().optional(),
    cachedContent: z
      .string({ error: 'must be a string' })
      .regex(/^cachedContents\/[^/\s]+$/, { error: 'must have the form cachedContents/{cachedContent}' })
      .optional(),
    /** Billing labels: metadata with no effect on the answer. */
    labels: z.record(z.string(), z.string(), { error: 'must be a map of strings' }).optional(),
    serviceTier: z.string().optional(),
    store: z.boolean().optional(),
    continuationToken: z.string().optional(),
  }),
);

export type GenerateRequest = z.output<ReturnType<typeof generateRequestSchema>>;

/** A request body as the service takes it (lowerCamel names): what an upstream converter builds for a Gemini channel. */
export type GeminiRequestBody = z.input<ReturnType<typeof generateRequestSchema>>;
