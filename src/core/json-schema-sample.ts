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
import type { JsonSchema } from './chat.js';

type Schema = JsonSchema | boolean;

interface SampleContext {
  root: JsonSchema;
  /** Text for the first string field it fits in; cleared once used. */
  hint: string | undefined;
}

/** Beyond this depth only required properties and minimum item counts are filled (ends optional recursion). */
const OPTIONAL_DEPTH = 6;
const MAX_DEPTH = 48;
const MAX_FLATTEN_STEPS = 64;

export function sampleFromSchema(schema: JsonSchema, hint?: string): unknown {
  return sample(schema, { root: schema, hint }, 0, 0);
}

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []);
const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

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

// ---- composition: $ref, allOf, anyOf/oneOf folded into one plain schema ----

function flatten(schema: JsonSchema, ctx: SampleContext): JsonSchema {
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

function typeList(type: unknown): string[] {
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t) => typeof t === 'string').map((t) => t.toLowerCase());
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

const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'iri-reference': 'https://example.com/',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

function sampleString(s: JsonSchema, ctx: SampleContext, variant: number): string {
  const format = typeof s.format === 'string' ? FORMAT_SAMPLES[s.format.toLowerCase()] : undefined;
  if (format !== undefined) return format;
  const min = numberOf(s.minLength) ?? 0;
  const max = numberOf(s.maxLength) ?? Infinity;
  const regex = typeof s.pattern === 'string' ? compilePattern(s.pattern) : undefined;
  const fits = (value: string) => {
    const length = codePoints(value);
    return length >= min && length <= max && (regex === undefined || regex.test(value));
  };
  if (ctx.hint !== undefined && fits(ctx.hint)) {
    const hint = ctx.hint;
    ctx.hint = undefined;
    return hint;
  }
  const base = variant === 0 ? 'sample' : `sample ${variant + 1}`;
  if (typeof s.pattern !== 'string') return fitLength(base, min, max);
  for (const stretch of [0, 1, 2, 4, 8, 16, 32, 64, 128]) {
    const candidate = samplePattern(s.pattern, stretch + variant);
    if (candidate !== undefined && fits(candidate)) return candidate;
  }
  return samplePattern(s.pattern, variant) ?? fitLength(base, min, max);
}

function fitLength(base: string, min: number, max: number): string {
  const cut = base.length > max ? base.slice(0, Math.max(0, max)) : base;
  return cut.length < min ? cut.padEnd(min, 'x') : cut;
}

function compilePattern(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next flag set; a pattern no engine accepts is left unchecked
    }
  }
  return undefined;
}

/** Candidate characters for a class or escape, in the order a reader would expect. */
const CLASS_CANDIDATES = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...' -_.@:/+,;!?#$%&*=~^|<>()[]{}\'"`\\',
];
const ESCAPE_SAMPLES: Record<string, string> = { d: '0', D: 'a', w: 'a', W: '-', s: ' ', S: 'a', n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', b: '', B: '' };

class UnsupportedPattern extends Error {}

/**
 * A string matching a simple regular expression: each quantifier repeats its
 * minimum (plus `stretch` for open-ended ones), each alternation takes its
 * first branch. Returns undefined for lookarounds and back-references.
 */
function samplePattern(pattern: string, stretch: number): string | undefined {
  let i = 0;
  const fail = (): never => {
    throw new UnsupportedPattern(pattern);
  };
  const alternation = (): string => {
    const first = sequence();
    while (pattern[i] === '|') {
      i++;
      sequence();
    }
    return first;
  };
  const sequence = (): string => {
    let out = '';
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') {
      const text = atom();
      out += text.repeat(quantifier());
    }
    return out;
  };
  const atom = (): string => {
    const c = pattern[i++];
    if (c === '^' || c === '$') return '';
    if (c === '.') return 'a';
    if (c === '[') return charClass(i - 1);
    if (c === '\\') return escape();
    if (c === '(') {
      if (pattern[i] === '?') {
        if (pattern[i + 1] === ':') i += 2;
        else if (pattern[i + 1] === '<' && pattern[i + 2] !== '=' && pattern[i + 2] !== '!') i = pattern.indexOf('>', i) + 1 || fail();
        else fail();
      }
      const inner = alternation();
      if (pattern[i++] !== ')') fail();
      return inner;
    }
    return c;
  };
  const escape = (): string => {
    const e = pattern[i++] ?? fail();
    if (e in ESCAPE_SAMPLES) return ESCAPE_SAMPLES[e];
    if (/[1-9k]/.test(e)) fail();
    if (e === 'u' || e === 'x') {
      const digits = e === 'u' ? 4 : 2;
      const hex = pattern.slice(i, i + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) fail();
      i += digits;
      return String.fromCharCode(parseInt(hex, 16));
    }
    return e;
  };
  const charClass = (start: number): string => {
    let j = start + 1;
    if (pattern[j] === '^') j++;
    if (pattern[j] === ']') j++;
    while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
    if (j >= pattern.length) fail();
    i = j + 1;
    const matcher = compilePattern(`^${pattern.slice(start, j + 1)}$`) ?? fail();
    const found = CLASS_CANDIDATES.find((candidate) => matcher.test(candidate));
    if (found !== undefined) return found;
    const first = pattern[start + 1] === '^' ? undefined : pattern[start + 1];
    return first !== undefined && matcher.test(first) ? first : fail();
  };
  const quantifier = (): number => {
    const c = pattern[i];
    let count: number;
    if (c === '?') count = Math.min(1, stretch);
    else if (c === '*') count = stretch;
    else if (c === '+') count = 1 + stretch;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m === null) return 1;
      const low = Number(m[1]);
      const high = m[2] === undefined ? low : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length - 1;
      count = Math.min(high, low + stretch);
    } else return 1;
    i++;
    if (pattern[i] === '?' || pattern[i] === '+') i++;
    return count;
  };
  try {
    const out = alternation();
    return i === pattern.length ? out : undefined;
  } catch (error) {
    if (error instanceof UnsupportedPattern) return undefined;
    throw error;
  }
}

// ---- numbers ----

function sampleNumber(s: JsonSchema, integer: boolean, variant: number): number {
  let low = numberOf(s.minimum);
  let high = numberOf(s.maximum);
  let lowExclusive = s.exclusiveMinimum === true && low !== undefined;
  let highExclusive = s.exclusiveMaximum === true && high !== undefined;
  const exMin = numberOf(s.exclusiveMinimum);
  const exMax = numberOf(s.exclusiveMaximum);
  if (exMin !== undefined && (low === undefined || exMin >= low)) [low, lowExclusive] = [exMin, true];
  if (exMax !== undefined && (high === undefined || exMax <= high)) [high, highExclusive] = [exMax, true];
  const multipleOf = numberOf(s.multipleOf);
  const step = multipleOf !== undefined && multipleOf > 0 ? (integer ? integerStep(multipleOf) : multipleOf) : integer ? 1 : undefined;

  let value = 1 + variant * (step ?? 1);
  if (low !== undefined && value < low) value = low;
  if (high !== undefined && value > high) value = high;
  if (step !== undefined) {
    value = Math.ceil(round(value / step)) * step;
    if (low !== undefined && (value < low || (lowExclusive && value <= low))) value += step;
    if (high !== undefined && (value > high || (highExclusive && value >= high))) {
      value = Math.floor(round(high / step)) * step;
      if (highExclusive && value >= high) value -= step;
    }
    return round(value);
  }
  if (lowExclusive && low !== undefined && value <= low) value = high !== undefined ? (low + high) / 2 : low + 1;
  if (highExclusive && high !== undefined && value >= high) value = low !== undefined ? (low + high) / 2 : high - 1;
  return value;
}

/** The smallest integer multiple of `multipleOf` (e.g. 0.5 → 1, 0.3 → 3). */
function integerStep(multipleOf: number): number {
  for (let k = 1; k <= 1000; k++) {
    const candidate = round(multipleOf * k);
    if (Number.isInteger(candidate)) return candidate;
  }
  return Math.ceil(multipleOf);
}

/** Removes binary floating-point noise such as 0.30000000000000004. */
const round = (value: number): number => Number(value.toPrecision(12));

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
