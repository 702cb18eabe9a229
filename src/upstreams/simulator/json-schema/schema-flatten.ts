/** Composition in a JSON Schema — $ref, allOf, anyOf/oneOf — folded into one plain schema before sampling. */
import type { JsonSchema } from '../../../core/chat.js';
import { isObject, stringsOf, typeList, type SampleContext } from './schema-values.js';

const MAX_FLATTEN_STEPS = 64;

export function flatten(schema: JsonSchema, ctx: SampleContext): JsonSchema {
  let s = schema;
  for (let step = 0; step < MAX_FLATTEN_STEPS; step++) {
    const { $ref, allOf, anyOf, oneOf, ...rest } = s;
    if (typeof $ref === 'string') s = merge(restWith(rest, { allOf, anyOf, oneOf }), resolveRef($ref, ctx.root));
    else if (Array.isArray(allOf)) s = allOf.reduce<JsonSchema>((acc, sub) => merge(acc, asSchema(sub)), restWith(rest, { anyOf, oneOf }));
    else if (Array.isArray(anyOf) && anyOf.length > 0) s = merge(restWith(rest, { oneOf }), asSchema(anyOf[0]));
    else if (Array.isArray(oneOf) && oneOf.length > 0) s = merge(rest, asSchema(oneOf[0]));
    else return s;
  }
  throw new Error('sampleFromSchema: $ref chain does not end (circular references)');
}

function restWith(rest: JsonSchema, keep: Record<string, unknown>): JsonSchema {
  const out: JsonSchema = { ...rest };
  for (const [key, value] of Object.entries(keep)) if (value !== undefined) out[key] = value;
  return out;
}

function asSchema(value: unknown): JsonSchema {
  if (value === false) throw new Error('sampleFromSchema: the schema `false` accepts no value');
  return isObject(value) ? value : {};
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) throw new Error(`sampleFromSchema: $ref ${ref} is not supported (only local #/... references)`);
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodePointerPart(raw);
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === true) return {};
  if (!isObject(node)) throw new Error(`sampleFromSchema: $ref ${ref} points at nothing`);
  return node;
}

function decodePointerPart(raw: string): string {
  let part = raw;
  try {
    part = decodeURIComponent(raw);
  } catch {
    // not percent-encoded after all: use it as written
  }
  return part.replace(/~1/g, '/').replace(/~0/g, '~');
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const COMPOSITION = new Set(['$ref', 'anyOf', 'oneOf', 'allOf']);

/** Both schemas must hold: bounds tighten, lists intersect or unite, sub-schemas combine. */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (COMPOSITION.has(key)) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), { [key]: value }];
    else if (LOWER_BOUNDS.has(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.max(mine, value);
    else if (UPPER_BOUNDS.has(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.min(mine, value);
    else if (key === 'required') out[key] = [...new Set([...stringsOf(mine), ...stringsOf(value)])];
    else if (key === 'type') out[key] = intersectTypes(mine, value);
    else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) out[key] = intersectValues(mine, value);
    else if (key === 'properties' && isObject(mine) && isObject(value)) out[key] = mergeProperties(mine, value);
    else if ((key === 'items' || key === 'additionalProperties') && isObject(mine) && isObject(value)) out[key] = { allOf: [mine, value] };
    else if (mine !== false) out[key] = value;
  }
  return out;
}

function mergeProperties(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = key in a ? { allOf: [a[key], value] } : value;
  return out;
}
function intersectTypes(a: unknown, b: unknown): unknown {
  const left = typeList(a);
  const right = typeList(b);
  const both = left.filter((t) => right.includes(t) || (t === 'integer' && right.includes('number')));
  for (const t of right) if (t === 'integer' && left.includes('number') && !both.includes(t)) both.push(t);
  return both.length > 0 ? both : b;
}

function intersectValues(a: unknown[], b: unknown[]): unknown[] {
  const keys = new Set(b.map((v) => JSON.stringify(v)));
  const both = a.filter((v) => keys.has(JSON.stringify(v)));
  return both.length > 0 ? both : b;
}

// ---- type choice ----
