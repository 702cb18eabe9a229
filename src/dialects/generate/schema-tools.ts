/**
 * Zod schemas of `tools`, `toolConfig` and the OpenAPI-subset `Schema` object
 * (used by function parameters and `responseSchema`). Schema types are read
 * case-insensitively: current clients send JSON-Schema spellings (`object`).
 */
import { z } from 'zod';
import { generateBuiltinToolKinds } from './features.js';
import { finiteNumber, functionCallingModes, protoEnum, protoInt, schemaTypes } from './schema-enums.js';
import { builtOnce } from '../../core/built-once.js';

export interface GenerateSchema {
  type?: (typeof schemaTypes)[number];
  format?: string;
  title?: string;
  description?: string;
  nullable?: boolean;
  enum?: string[];
  maxItems?: number;
  minItems?: number;
  properties?: Record<string, GenerateSchema>;
  required?: string[];
  minProperties?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  example?: unknown;
  anyOf?: GenerateSchema[];
  propertyOrdering?: string[];
  default?: unknown;
  items?: GenerateSchema;
  minimum?: number;
  maximum?: number;
}

const count = () => protoInt({ min: 0 }).optional();

export const schemaObjectSchema: () => z.ZodType<GenerateSchema> = builtOnce(
  () =>
    z.lazy(() =>
      z.object({
        type: protoEnum(schemaTypes, { caseInsensitive: true }).optional(),
        format: z.string().optional(),
        title: z.string().optional(),
        description: z.string().optional(),
        nullable: z.boolean().optional(),
        enum: z.array(z.string({ error: 'enum values must be strings' })).optional(),
        maxItems: count(),
        minItems: count(),
        properties: z.record(z.string(), schemaObjectSchema()).optional(),
        required: z.array(z.string()).optional(),
        minProperties: count(),
        maxProperties: count(),
        minLength: count(),
        maxLength: count(),
        pattern: z.string().optional(),
        example: z.unknown().optional(),
        anyOf: z.array(schemaObjectSchema()).optional(),
        propertyOrdering: z.array(z.string()).optional(),
        default: z.unknown().optional(),
        items: schemaObjectSchema().optional(),
        minimum: finiteNumber().optional(),
        maximum: finiteNumber().optional(),
      }),
    ) as z.ZodType<GenerateSchema>,
);

/** Letters, digits, `_ . : -`, starting with a letter or underscore, at most 64 characters. */
const functionName = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

const jsonSchemaValue = builtOnce(() => z.record(z.string(), z.unknown(), { error: 'must be a JSON Schema object' }));

export const functionDeclarationSchema = builtOnce(() =>
  z
    .object({
      name: z.string({ error: 'name is required' }).regex(functionName, {
        error: 'function names must start with a letter or an underscore and hold at most 64 letters, digits, underscores, dots, colons or dashes',
      }),
      description: z.string().optional(),
      behavior: z.enum(['UNSPECIFIED', 'BLOCKING', 'NON_BLOCKING']).optional(),
      parameters: schemaObjectSchema().optional(),
      parametersJsonSchema: jsonSchemaValue().optional(),
      response: schemaObjectSchema().optional(),
      responseJsonSchema: jsonSchemaValue().optional(),
    })
    .superRefine((declaration, ctx) => {
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['parametersJsonSchema'], message: 'parameters and parameters_json_schema are mutually exclusive' });
      }
    }),
);

const builtinConfig = builtOnce(() => z.record(z.string(), z.unknown(), { error: 'must be an object' }));

/** Tools the service runs itself, by their field name in a Tool (one list with the gemini upstream). */
export const builtinToolKinds = generateBuiltinToolKinds;

export const toolSchema = builtOnce(() =>
  z
    .object({
      functionDeclarations: z.array(functionDeclarationSchema(), { error: 'must be an array' }).optional(),
      codeExecution: builtinConfig().optional(),
      googleSearch: builtinConfig().optional(),
      googleSearchRetrieval: builtinConfig().optional(),
      enterpriseWebSearch: builtinConfig().optional(),
      urlContext: builtinConfig().optional(),
      googleMaps: builtinConfig().optional(),
      fileSearch: builtinConfig().optional(),
      computerUse: builtinConfig().optional(),
    })
    .refine((tool) => Object.values(tool).some((value) => value !== undefined), { error: 'a tool must declare functions or enable a built-in tool' }),
);

export const toolConfigSchema = builtOnce(() =>
  z.object({
    functionCallingConfig: z
      .object({
        mode: protoEnum(functionCallingModes).optional(),
        allowedFunctionNames: z.array(z.string(), { error: 'must be an array of function names' }).optional(),
        streamFunctionCallArguments: z.boolean().optional(),
      })
      .optional(),
    retrievalConfig: z.record(z.string(), z.unknown()).optional(),
    includeServerSideToolInvocations: z.boolean().optional(),
  }),
);

export type FunctionDeclaration = z.output<ReturnType<typeof functionDeclarationSchema>>;
export type Tool = z.output<ReturnType<typeof toolSchema>>;
export type ToolConfig = z.output<ReturnType<typeof toolConfigSchema>>;
export type BuiltinToolKind = (typeof builtinToolKinds)[number];
