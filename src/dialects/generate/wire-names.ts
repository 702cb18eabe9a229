/**
 * Proto JSON field names for a GenerateContent request. The service accepts
 * each field both as lowerCamel (`inlineData`) and as its proto name
 * (`inline_data`); this pass renames the second form to the first, in place,
 * following the request's message types, so free-form values (function
 * arguments, JSON schemas, property names) are never touched. A name that is
 * not a field of its message is refused the way the service refuses it.
 *
 * The message types are read from the request schema (schema-request.ts),
 * once, at the first request: a `z.object` is a message and its keys are its
 * fields, an array is a repeated field, a record is a map (its keys are the
 * client's own), and a free-form value is one whose keys are the client's
 * (`z.record` of unknown values, `z.unknown`, `z.any`, an object that keeps
 * unknown keys): nothing inside it is renamed or refused.
 */
import type { z } from 'zod';
import { builtOnce } from '../../core/built-once.js';
import { GatewayError } from '../../core/errors.js';
import { generateRequestSchema } from './schema-request.js';

/** A repeated field. */
export class Repeated {
  constructor(readonly item: WireNode) {}
}
/** A map field: its keys are the client's own names, its values are `value` nodes. */
export class MapOf {
  constructor(readonly value: WireNode) {}
}
/** `value`: a scalar or a free-form JSON value, not renamed inside. */
export type WireNode = 'value' | WireMessage | Repeated | MapOf;
export type WireMessage = { readonly [camelName: string]: WireNode };

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The field-name tree of the request, derived from its schema on first use. */
export const generateRequestFields = builtOnce(() => wireTree(generateRequestSchema()) as WireMessage);

/** The field-name tree of a schema. Exported for tests. */
export function wireTree(schema: z.ZodType): WireNode {
  return nodeOf(schema, new Map());
}

function nodeOf(schema: z.ZodType, seen: Map<z.ZodType, WireNode>): WireNode {
  const known = seen.get(schema);
  if (known !== undefined) return known;
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      // An object that keeps unknown keys holds the client's own names.
      if (def.catchall !== undefined && defOf(def.catchall).type !== 'never') return 'value';
      // Registered before its fields: a recursive message (the Schema object) finds itself.
      const message: Record<string, WireNode> = {};
      seen.set(schema, message);
      for (const [name, field] of Object.entries(def.shape ?? {})) message[name] = nodeOf(field, seen);
      return message;
    }
    case 'array': {
      const item = nodeOf(def.element!, seen);
      return item === 'value' ? 'value' : new Repeated(item);
    }
    case 'record': {
      const value = nodeOf(def.valueType!, seen);
      return value === 'value' ? 'value' : new MapOf(value);
    }
    case 'union':
      return unionNode(def.options!.map((option) => nodeOf(option, seen)));
    case 'lazy': {
      // zod keeps the schema a lazy one stands for; calling the getter again would build another.
      const node = nodeOf((schema as unknown as { _zod: { innerType: z.ZodType } })._zod.innerType, seen);
      seen.set(schema, node);
      return node;
    }
    case 'pipe': {
      // A transform's input is what the client sends; a preprocess's output is what it is read as.
      const input = nodeOf(def.in!, seen);
      return input !== 'value' || defOf(def.in!).type !== 'transform' ? input : nodeOf(def.out!, seen);
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return nodeOf(def.innerType!, seen);
    default:
      return 'value';
  }
}

/** A union of scalars is a value; `X` or a list of `X` is read as the list (`contents` may be one Content). */
function unionNode(options: WireNode[]): WireNode {
  const structured = [...new Set(options.filter((option): option is Exclude<WireNode, 'value'> => option !== 'value'))];
  if (structured.length === 0) return 'value';
  if (structured.length === 1) return structured[0];
  const list = structured.find((option): option is Repeated => option instanceof Repeated);
  if (structured.length === 2 && list && structured.some((option) => option === list.item)) return list;
  throw new Error('a union of different messages has no one field-name tree');
}

const snakeSegment = /_([a-z0-9])/g;

function toCamel(name: string): string {
  return name.includes('_') ? name.replace(snakeSegment, (_, c: string) => c.toUpperCase()) : name;
}

export function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a value sits, kept as links and spelled out only for an error message. */
interface At {
  parent: At | undefined;
  /** A field name (lowerCamel, spelled in proto form only for a message), a map key, or an array index. */
  segment: string | number;
  /** The segment is a field name, not a client's map key. */
  field?: true;
}

function spell(at: At | undefined): string {
  const segments: Array<string | number> = [];
  for (let node = at; node; node = node.parent) segments.push(node.field ? toSnake(node.segment as string) : node.segment);
  let out = '';
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** Renames proto-name keys to lowerCamel in place; throws a 400 for a key its message does not have. */
export function normalizeWireNames(body: Record<string, unknown>): void {
  visit(body, generateRequestFields(), undefined);
}

function visit(value: unknown, node: WireNode, at: At | undefined): void {
  if (node === 'value' || value === null || typeof value !== 'object') return;
  if (node instanceof Repeated) {
    // A single object is tolerated here and judged by validation (`contents` may be one object).
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, node.item, { parent: at, segment: i }));
    else visit(value, node.item, at);
    return;
  }
  if (node instanceof MapOf) {
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) visit(value[key], node.value, { parent: at, segment: key });
    return;
  }
  if (!isPlainObject(value)) return;
  const fields = node as WireMessage;
  for (const key of Object.keys(value)) {
    const camel = toCamel(key);
    const child = Object.hasOwn(fields, camel) ? fields[camel] : undefined;
    if (child === undefined) {
      const path = spell(at);
      throw new GatewayError('invalid_request', `Invalid JSON payload received. Unknown name "${key}"${path ? ` at '${path}'` : ''}: Cannot find field.`, {
        param: path ? `${path}.${key}` : key,
      });
    }
    if (camel !== key) {
      if (Object.hasOwn(value, camel)) {
        const path = spell(at);
        throw new GatewayError('invalid_request', `Invalid JSON payload received. Field "${toSnake(camel)}" is set twice${path ? ` at '${path}'` : ''}.`);
      }
      value[camel] = value[key];
      delete value[key];
    }
    if (child !== 'value') visit(value[camel], child, { parent: at, segment: camel, field: true });
  }
}
