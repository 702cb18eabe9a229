/**
 * The dialect's OpenAPI-subset Schema object → standard JSON Schema, for
 * upstreams that take JSON Schema: lower-case types, `nullable` as a `null`
 * type, `propertyOrdering` as the order of `properties`. `example` is an
 * annotation with no JSON Schema keyword every upstream accepts; it is left out.
 */
import type { JsonSchema } from '../../core/chat.js';
import type { GenerateSchema } from '../../dialects/generate/schema-tools.js';

const copied = [
  'format',
  'title',
  'description',
  'enum',
  'required',
  'pattern',
  'default',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
] as const;

export function toJsonSchema(schema: GenerateSchema): JsonSchema {
  const out: JsonSchema = {};
  const type = schema.type && schema.type !== 'TYPE_UNSPECIFIED' ? schema.type.toLowerCase() : undefined;
  if (type) out.type = schema.nullable && type !== 'null' ? [type, 'null'] : type;
  for (const key of copied) {
    const value = schema[key];
    // `format: "enum"` only restates that a string has `enum` values.
    if (value !== undefined && !(key === 'format' && value === 'enum')) out[key] = value;
  }
  if (schema.nullable && Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  if (schema.properties) out.properties = orderedProperties(schema.properties, schema.propertyOrdering);
  if (schema.items) out.items = toJsonSchema(schema.items);
  if (schema.anyOf) out.anyOf = schema.anyOf.map(toJsonSchema);
  return out;
}

function orderedProperties(properties: Record<string, GenerateSchema>, ordering: string[] | undefined): JsonSchema {
  const out: JsonSchema = {};
  for (const name of ordering ?? []) if (Object.hasOwn(properties, name)) out[name] = toJsonSchema(properties[name]);
  for (const [name, value] of Object.entries(properties)) if (!Object.hasOwn(out, name)) out[name] = toJsonSchema(value);
  return out;
}

/** Gemini's `Type` names (`OBJECT`, `STRING`…), which current clients also write inside JSON Schemas. */
const geminiTypeNames = /^(STRING|NUMBER|INTEGER|BOOLEAN|ARRAY|OBJECT|NULL)$/;

/** Keywords whose values are data, not schemas: never rewritten. */
const dataKeywords = new Set(['enum', 'const', 'default', 'example', 'examples']);

function standardType(name: unknown): unknown {
  return typeof name === 'string' && geminiTypeNames.test(name) ? name.toLowerCase() : name;
}

/**
 * A client's JSON Schema (`parametersJsonSchema`, `responseJsonSchema`) with
 * Gemini-style upper-case type names lower-cased, as standard JSON Schema
 * spells them: Gemini reads either, other upstreams only the standard form.
 * The input is never modified (pass-through keeps the client's bytes anyway).
 */
export function standardTypeNames(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(standardTypeNames);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // A property named `type` (inside `properties`) holds a schema, not a type name.
    const isTypeName = key === 'type' && (typeof value === 'string' || Array.isArray(value));
    if (isTypeName) out[key] = Array.isArray(value) ? value.map(standardType) : standardType(value);
    else out[key] = dataKeywords.has(key) ? value : standardTypeNames(value);
  }
  return out;
}
