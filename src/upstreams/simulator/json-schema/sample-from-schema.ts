/**
 * Builds a deterministic example value that validates against a JSON Schema
 * (the draft 2020-12 subset that tool definitions and structured-output
 * requests use, plus draft-07 tuples and Gemini's uppercase types).
 *
 * Best effort, documented: `pattern` is sampled for simple expressions
 * (literals, classes, escapes, groups, alternation, quantifiers); `not`,
 * `if/then/else`, `patternProperties`, `dependent*` and `uniqueItems` over
 * values that cannot vary are not enforced. Unsatisfiable or unsupported
 * schemas (`false`, remote or anchor `$ref`s, unbounded recursion) throw.
 */
import type { JsonSchema } from '../../../core/chat.js';
import { sampleNumber } from './sample-number.js';
import { sampleString } from './sample-string.js';
import { flatten } from './schema-flatten.js';
import { isObject, numberOf, stringsOf, typeList, type SampleContext, type Schema } from './schema-values.js';

/** Beyond this depth only required properties and minimum item counts are filled (ends optional recursion). */
const OPTIONAL_DEPTH = 6;
const MAX_DEPTH = 48;

export function sampleFromSchema(schema: JsonSchema, hint?: string): unknown {
  return sample(schema, { root: schema, hint }, 0, 0);
}

function sample(schema: Schema | undefined, ctx: SampleContext, depth: number, variant: number): unknown {
  if (depth > MAX_DEPTH) throw new Error(`sampleFromSchema: schema nests deeper than ${MAX_DEPTH} levels (required recursion?)`);
  if (schema === false) throw new Error('sampleFromSchema: the schema `false` accepts no value');
  const s = schema === undefined || schema === true ? {} : flatten(schema, ctx);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[variant % s.enum.length];
  switch (chooseType(s)) {
    case 'null':
      return null;
    case 'boolean':
      return variant % 2 === 0;
    case 'integer':
      return sampleNumber(s, true, variant);
    case 'number':
      return sampleNumber(s, false, variant);
    case 'object':
      return sampleObject(s, ctx, depth, variant);
    case 'array':
      return sampleArray(s, ctx, depth, variant);
    default:
      return sampleString(s, ctx, variant);
  }
}

function chooseType(s: JsonSchema): string {
  const declared = typeList(s.type).filter((t) => t !== 'type_unspecified');
  if (declared.length > 0) return declared.find((t) => t !== 'null') ?? 'null';
  const has = (...keys: string[]) => keys.some((key) => key in s);
  if (has('properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties')) return 'object';
  if (has('items', 'prefixItems', 'minItems', 'maxItems', 'contains', 'uniqueItems')) return 'array';
  if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) return 'number';
  return 'string';
}

// ---- strings ----
// ---- objects and arrays ----

function sampleObject(s: JsonSchema, ctx: SampleContext, depth: number, variant: number): Record<string, unknown> {
  const properties = isObject(s.properties) ? s.properties : {};
  const required = stringsOf(s.required);
  const extra = s.additionalProperties;
  const extraSchema = isObject(extra) ? extra : undefined;
  const includeOptional = depth < OPTIONAL_DEPTH;
  const entries: Array<[string, unknown]> = [];
  const taken = new Set<string>();
  const add = (key: string, schema: Schema | undefined) => {
    taken.add(key);
    entries.push([key, sample(schema, ctx, depth + 1, variant)]);
  };
  for (const [key, schema] of Object.entries(properties)) {
    if (includeOptional || required.includes(key)) add(key, schema as Schema);
  }
  for (const key of required) if (!taken.has(key)) add(key, extraSchema);
  const minProperties = numberOf(s.minProperties) ?? 0;
  for (let n = 1; entries.length < minProperties && extra !== false; n++) if (!taken.has(`key${n}`)) add(`key${n}`, extraSchema);
  const maxProperties = numberOf(s.maxProperties) ?? Infinity;
  for (let k = entries.length - 1; k >= 0 && entries.length > maxProperties; k--) {
    if (!required.includes(entries[k][0])) entries.splice(k, 1);
  }
  // fromEntries keeps a key named `__proto__` as data instead of setting the prototype.
  return Object.fromEntries(entries);
}

function sampleArray(s: JsonSchema, ctx: SampleContext, depth: number, variant: number): unknown[] {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  // Draft-07 tuples put the tail schema in additionalItems; 2020-12 puts it in items.
  const rest = (Array.isArray(s.items) ? s.additionalItems : s.items) as Schema | undefined;
  const min = numberOf(s.minItems) ?? 0;
  const max = numberOf(s.maxItems) ?? Infinity;
  const contains = s.contains as Schema | undefined;
  const wanted = depth < OPTIONAL_DEPTH ? Math.max(tuple.length, rest === false ? 0 : 1) : 0;
  const needed = contains === undefined ? 0 : tuple.length + Math.max(1, numberOf(s.minContains) ?? 1);
  const count = Math.min(Math.max(min, wanted, needed), max);
  const unique = s.uniqueItems === true;
  const items: unknown[] = [];
  for (let k = 0; k < count; k++) {
    const itemVariant = unique ? variant + k : variant;
    let schema: Schema | undefined = k < tuple.length ? (tuple[k] as Schema) : rest;
    if (k >= tuple.length && contains !== undefined) schema = isObject(schema) ? { allOf: [schema, contains] } : contains;
    items.push(sample(schema, ctx, depth + 1, itemVariant));
  }
  return items;
}
